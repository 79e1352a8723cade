package net.hopwise.voip.relay;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import net.hopwise.overlay.NeighbourConfig;
import net.hopwise.overlay.NodeConfig;
import net.hopwise.overlay.NodeRuntime;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.impair.Direction;
import net.hopwise.overlay.impair.ImpairmentConfig;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.testing.Eventually;

/**
 * Two sites' relays on overlay nodes over loopback UDP, with impaired links between them: relay a on
 * node a (the caller's site), relay b on node b (the callee's, reached by the dial plan
 * {@code prefix:bob=b}), and any transit nodes between. Links are impaired the same way in both
 * directions. Shared by the loss, fault and signalling tests and by the experiment programs.
 */
final class RelaySites implements AutoCloseable {
    final NodeRuntime runtime;
    final Map<String, OverlayNode> nodes = new LinkedHashMap<>();
    final SipRelay relayA;
    final SipRelay relayB;
    final List<CallStatistics> endedA = new CopyOnWriteArrayList<>();
    final List<CallStatistics> endedB = new CopyOnWriteArrayList<>();

    /** A link between two nodes and what it does to datagrams each way. */
    record Link(String from, String to, ImpairmentConfig impairment) {}

    /**
     * @param links the overlay links; node names are taken from them, {@code a} and {@code b} required
     * @param seed seeds every node's impairment models
     * @param mediaPortBase relay a takes media ports from here, relay b 500 above
     */
    RelaySites(List<Link> links, long seed, int mediaPortBase) {
        this(links, seed, mediaPortBase, UnaryOperator.identity());
    }

    /** As above, with a change to both relays' configuration (a shorter media timeout...). */
    RelaySites(List<Link> links, long seed, int mediaPortBase, UnaryOperator<RelayConfig.Builder> relayChange) {
        runtime = NodeRuntime.create(1);
        try {
            long s = seed;
            for (Link l : links) {
                for (String name : List.of(l.from(), l.to())) {
                    if (!nodes.containsKey(name)) {
                        nodes.put(name, OverlayNode.start(NodeConfig.builder(name).loopback(0)
                                .impairmentSeed(s++).build(), runtime));
                    }
                }
            }
            for (Link l : links) {
                OverlayNode x = nodes.get(l.from());
                OverlayNode y = nodes.get(l.to());
                x.addNeighbour(new NeighbourConfig(y.name(), y.localAddress()));
                y.addNeighbour(new NeighbourConfig(x.name(), x.localAddress()));
                impair(l.from(), l.to(), l.impairment());
            }
            Eventually.await("every node reaches every other", () -> nodes.values().stream().allMatch(n ->
                    n.reachableNodes(RoutingMetric.EXPECTED_LATENCY).size() >= nodes.size() - 1
                            && n.reachableNodes(n.config().defaultMetric()).size() >= nodes.size() - 1));
            relayA = SipRelay.start(node("a"), relayChange.apply(relay(mediaPortBase)).build());
            relayB = SipRelay.start(node("b"), relayChange.apply(relay(mediaPortBase + 500)).build());
            relayA.onCallEnded(endedA::add);
            relayB.onCallEnded(endedB::add);
        } catch (RuntimeException | Error e) {
            stopNodes();
            throw e;
        }
    }

    /**
     * Both relays' configuration: RFC 3261's T1, as SIPp has it (a smaller one retransmits INVITEs to
     * a SIPp uas that is only slow to answer, and SIPp aborts a call on an INVITE retransmitted after
     * its 200), and a short transaction wait, so that state clears within seconds.
     */
    static RelayConfig.Builder relay(int mediaPortBase) {
        return RelayConfig.builder().sipAddress(new InetSocketAddress("127.0.0.1", 0)).mediaAddress("127.0.0.1")
                .mediaPorts(mediaPortBase, mediaPortBase + 399).route("prefix:bob=b").linger(Duration.ZERO)
                .transactionWait(Duration.ofMillis(3200));
    }

    OverlayNode node(String name) {
        return nodes.get(name);
    }

    /** Impairs the link between two nodes, both directions, from now on. */
    void impair(String x, String y, ImpairmentConfig impairment) {
        nodes.get(x).impair(y, Direction.OUTBOUND, impairment);
        nodes.get(y).impair(x, Direction.OUTBOUND, impairment);
    }

    /** Waits until both relays forgot every call and hold nothing. */
    void awaitIdle(int callsPerSide) {
        Eventually.await("both relays forget the calls", () -> endedA.size() >= callsPerSide
                && endedB.size() >= callsPerSide && relayA.state().idle() && relayB.state().idle(), this::describe);
    }

    /** Waits until both relays ended every call and hold no media; transactions may still linger. */
    void awaitCallsGone(int callsPerSide) {
        Eventually.await("both relays end the calls", () -> endedA.size() >= callsPerSide
                && endedB.size() >= callsPerSide && relayA.state().calls() == 0 && relayB.state().calls() == 0
                && relayA.state().mediaPortPairs() == 0 && relayB.state().mediaPortPairs() == 0, this::describe);
    }

    private String describe() {
        return "relay a ended " + endedA.size() + " calls and holds " + relayA.state() + ", relay b ended "
                + endedB.size() + " and holds " + relayB.state();
    }

    /** Statistics of what each relay delivered to its phone, callee's side first. */
    List<StreamStatistics.Direction> deliveredToPhones() {
        List<StreamStatistics.Direction> out = new ArrayList<>();
        for (List<CallStatistics> side : List.of(endedB, endedA)) {
            for (CallStatistics call : side) {
                if (!call.streams().isEmpty()) {
                    out.add(call.streams().get(0).toPhone());
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        try {
            relayA.close();
            relayB.close();
        } finally {
            stopNodes();
        }
    }

    private void stopNodes() {
        nodes.values().forEach(OverlayNode::stop);
        runtime.close();
    }
}
