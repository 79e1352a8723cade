package net.hopwise.overlay.security.attack;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.link.HelloConfig;
import net.hopwise.overlay.node.Neighbour;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.LinkSecurity;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.testing.Eventually;

/**
 * Two secured nodes, a and b, on loopback UDP, each knowing the other at a {@link Wiretap}'s address:
 * every datagram between them passes the attacker. b collects what arrives on port 7 and the events
 * it raises.
 */
final class SecuredPair implements AutoCloseable {
    static final int PORT = 7;

    final NodeKeys ka = NodeKeys.generate();
    final NodeKeys kb = NodeKeys.generate();
    final TrustedKeys trusted = new TrustedKeys(Map.of("a", List.of(ka.identityPublic()), "b", List.of(kb.identityPublic())));
    final ConcurrentLinkedQueue<String> deliveredAtB = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<NodeEvent> eventsAtB = new ConcurrentLinkedQueue<>();
    final NodeRuntime runtime = NodeRuntime.create(1);
    final Wiretap tap;
    private final UnaryOperator<SecurityConfig> tweak;
    private final boolean secured;
    OverlayNode a;
    OverlayNode b;

    /** Secured with the default settings. */
    static SecuredPair start() throws Exception {
        return start(UnaryOperator.identity(), true);
    }

    /**
     * @param tweak changes both nodes' security settings
     * @param secured false for plaintext nodes: the control that shows what an attacker would see
     */
    static SecuredPair start(UnaryOperator<SecurityConfig> tweak, boolean secured) throws Exception {
        SecuredPair p = new SecuredPair(tweak, secured);
        try {
            p.a = p.startNode("a");
            p.b = p.startNode("b");
            p.b.addListener(p.eventsAtB::add);
            p.b.openPort(PORT, m -> p.deliveredAtB.add(m.payload().toString(java.nio.charset.StandardCharsets.ISO_8859_1)));
            p.tap.between(p.a.localAddress(), p.b.localAddress());
            p.a.addNeighbour(new NeighbourConfig("b", p.tap.forA()));
            p.b.addNeighbour(new NeighbourConfig("a", p.tap.forB()));
            p.awaitLinked();
            return p;
        } catch (Exception | Error e) {
            p.close();
            throw e;
        }
    }

    private SecuredPair(UnaryOperator<SecurityConfig> tweak, boolean secured) throws Exception {
        this.tweak = tweak;
        this.secured = secured;
        this.tap = new Wiretap();
    }

    OverlayNode startNode(String name) {
        NodeConfig.Builder builder = NodeConfig.builder(name).loopback(0).defaultMetric(RoutingMetric.HOPS)
                .hello(HelloConfig.defaults());
        if (secured) {
            builder.module(new SecurityModule(tweak.apply(SecurityConfig.of(name, name.equals("a") ? ka : kb, null, trusted))));
        }
        return OverlayNode.start(builder.build(), runtime);
    }

    /** Stops a and starts it again with the same keys (a fresh process: no session survives). */
    void restartA() throws Exception {
        a.stop();
        a = startNode("a");
        tap.retargetA(a.localAddress());
        a.addNeighbour(new NeighbourConfig("b", tap.forA()));
    }

    /** Stops b and starts it again with the same keys. */
    void restartB() throws Exception {
        b.stop();
        b = startNode("b");
        b.addListener(eventsAtB::add);
        b.openPort(PORT, m -> deliveredAtB.add(m.payload().toString(java.nio.charset.StandardCharsets.ISO_8859_1)));
        tap.retargetB(b.localAddress());
        b.addNeighbour(new NeighbourConfig("a", tap.forB()));
    }

    void awaitLinked() {
        Eventually.await("a route each way over sealed links", () -> !a.path("b", RoutingMetric.HOPS).isEmpty()
                && !b.path("a", RoutingMetric.HOPS).isEmpty());
    }

    /** Sends from a to b's port 7 and waits until b has it. */
    void deliverFromA(String text) {
        int before = deliveredAtB.size();
        var port = a.openPort(100 + before, m -> { });
        port.send("b", PORT, text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        Eventually.await("'" + text + "' delivered at b", () -> deliveredAtB.contains(text));
        port.close();
    }

    static long drops(OverlayNode node, DropReason reason) {
        return node.counters().moduleDrops().stream().filter(d -> d.reason().equals(reason.reason()))
                .mapToLong(DropCounter::count).sum();
    }

    /** Every drop the node counted, the core's and the modules' together. */
    static long allDrops(OverlayNode node) {
        return node.counters().totalDrops();
    }

    static LinkSecurity.PeerStatus status(OverlayNode node, String peer) {
        return node.module(SecureLinks.class).status().orTimeout(10, TimeUnit.SECONDS).join().stream()
                .filter(s -> s.name().equals(peer)).findFirst().orElse(null);
    }

    static InetSocketAddress neighbourAddress(OverlayNode node, String peer) {
        return node.neighbours().stream().filter(n -> n.name().equals(peer)).map(Neighbour::address).findFirst()
                .orElseThrow();
    }

    @Override
    public void close() throws Exception {
        try {
            if (a != null) {
                a.stop();
            }
            if (b != null) {
                b.stop();
            }
        } finally {
            tap.close();
            runtime.close();
        }
    }
}
