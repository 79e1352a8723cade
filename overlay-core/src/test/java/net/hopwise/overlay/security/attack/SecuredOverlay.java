package net.hopwise.overlay.security.attack;

import io.netty.buffer.Unpooled;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.spi.DropCounter;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.DatagramTap;
import net.hopwise.overlay.testing.VirtualOverlay;

/**
 * Secured nodes in the simulator ({@link VirtualOverlay}: the production node on virtual time), each
 * with a capture next to its socket that copies every datagram it sends and receives as it is on
 * the wire: sealed. The trust list admits {@code a}, {@code b} and {@code c}; anyone else is an
 * outsider. Keys are made once per run of the suite, as they cost a millisecond each.
 */
final class SecuredOverlay implements AutoCloseable {
    static final long MS = 1_000_000L;
    static final long WALL = 1_800_000_000L;
    private static final Map<String, NodeKeys> KEYS = new ConcurrentHashMap<>();

    /** A datagram as one node's socket saw it. */
    record Seen(String node, boolean outbound, InetSocketAddress peer, byte[] bytes) {
        int type() {
            return Forgeries.type(bytes);
        }
    }

    final List<Seen> wire = new ArrayList<>();
    final VirtualOverlay overlay;
    final TrustedKeys trusted;

    /** @param tweak changes a node's security settings, by name */
    SecuredOverlay(long seed, BiFunction<String, SecurityConfig, SecurityConfig> tweak) {
        this(seed, tweak, name -> null);
    }

    /** @param above a module installed above link security on a node (by name), or null for none */
    SecuredOverlay(long seed, BiFunction<String, SecurityConfig, SecurityConfig> tweak,
            java.util.function.Function<String, OverlayModule> above) {
        this(seed, tweak, above, true);
    }

    /**
     * The same nodes and capture without link security: a control, showing what a test looks for on
     * the wire is there to be seen when links are not sealed.
     */
    static SecuredOverlay plaintext(long seed) {
        return new SecuredOverlay(seed, (n, c) -> c, name -> null, false);
    }

    private SecuredOverlay(long seed, BiFunction<String, SecurityConfig, SecurityConfig> tweak,
            java.util.function.Function<String, OverlayModule> above, boolean secured) {
        this.trusted = new TrustedKeys(Map.of("a", List.of(keys("a").identityPublic()),
                "b", List.of(keys("b").identityPublic()), "c", List.of(keys("c").identityPublic())));
        this.overlay = new VirtualOverlay(seed, builder -> {
            String name = builder.build().name();
            builder.module(DatagramTap.of("capture",
                    (from, datagram) -> {
                        wire.add(new Seen(name, false, from, DatagramTap.bytes(datagram)));
                        return datagram;
                    },
                    (link, address, datagram) -> {
                        wire.add(new Seen(name, true, address, DatagramTap.bytes(datagram)));
                        return datagram;
                    })); // first: next to the socket, outside link security
            if (secured) {
                builder.module(new SecurityModule(tweak.apply(name,
                        SecurityConfig.of(name, keys(name), null, trusted).withWallClock(() -> WALL))));
            }
            OverlayModule extra = above.apply(name);
            if (extra != null) {
                builder.module(extra);
            }
        });
    }

    static NodeKeys keys(String name) {
        return KEYS.computeIfAbsent(name, n -> NodeKeys.generate());
    }

    NodeStack engine(String name) {
        return overlay.engine(name);
    }

    /** Runs until {@code from} has a route to {@code to}, at most {@code limitMs} of virtual time. */
    boolean awaitRoute(String from, String to, long limitMs) {
        long end = overlay.now() + limitMs * MS;
        while (overlay.now() < end) {
            if (engine(from).hasRoute(NodeId.ofName(to), RoutingMetric.HOPS)) {
                return true;
            }
            overlay.runFor(5 * MS);
        }
        return engine(from).hasRoute(NodeId.ofName(to), RoutingMetric.HOPS);
    }

    /** Puts a datagram on the link from {@code from} to {@code to}, as if {@code from} sent it. */
    void inject(String from, String to, byte[] datagram) {
        overlay.inject(from, to, Unpooled.wrappedBuffer(datagram));
    }

    /** Sealed DATA datagrams {@code from} sent towards {@code to}'s address. */
    List<byte[]> sealed(String from, String to) {
        InetSocketAddress at = overlay.address(to);
        List<byte[]> out = new ArrayList<>();
        for (Seen s : wire) {
            if (s.node().equals(from) && s.outbound() && s.peer().equals(at) && s.type() == Forgeries.DATA) {
                out.add(s.bytes());
            }
        }
        return out;
    }

    static long drops(NodeStack node, DropReason reason) {
        return node.counters().moduleDrops().stream().filter(d -> d.reason().equals(reason.reason()))
                .mapToLong(DropCounter::count).sum();
    }

    /**
     * Every drop the node counted for what it received: the core's and the modules', without the
     * datagrams it gave up sending itself ({@code security_no_session}: hellos to a neighbour that
     * never completes a handshake).
     */
    static long receiveDrops(NodeStack node) {
        return node.counters().totalDrops() - drops(node, DropReason.NO_SESSION);
    }

    @Override
    public void close() {
        overlay.close();
    }
}
