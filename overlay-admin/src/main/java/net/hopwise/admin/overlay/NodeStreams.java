package net.hopwise.admin.overlay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.node.RealTimeChannel;
import net.hopwise.overlay.realtime.RealTimeFlowStatistics;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.session.SessionEndpoint;
import net.hopwise.overlay.session.SessionStatistics;

/**
 * Reads the end-to-end streams of the service's node: its reliable sessions and the real-time flows
 * arriving at its ports.
 *
 * <p>A flow's destination counts what arrived and what is missing, but not what the hops recovered
 * on its way: that is counted per link, by the real-time channel at each hop's receiving end. So the
 * flow's recoveries are read from the channels along the path its source's packets take, as far as
 * those receiving ends run in this process.
 */
final class NodeStreams {
    /**
     * A flow does not say which metric its source routes it by; hop count is the metric real-time
     * flows are opened with by default and the one the demo uses.
     */
    private static final RoutingMetric FLOW_METRIC = RoutingMetric.HOPS;

    private NodeStreams() {}

    /** A flow as the destination's event loop sees it, with its path from the source. */
    private record Flow(RealTimeFlowStatistics stats, List<NodeId> path, List<String> names) {}

    static List<SessionView> read(LocalNodes nodes) {
        OverlayNode self = nodes.self();
        List<SessionView> list = new ArrayList<>();
        List<Flow> flows = new ArrayList<>();
        self.inspect(engine -> {
            var database = engine.router().database();
            for (SessionEndpoint e : engine.sessions()) {
                SessionStatistics st = e.statistics();
                String state = e.isClosed() ? "CLOSED" : e.sender().blocked() ? "BLOCKED" : "OPEN";
                list.add(new SessionView(SessionView.Kind.RELIABLE, self.name(), e.localPort(),
                        database.nameOf(e.remote()).orElse(e.remote().toString()), e.remotePort(),
                        new SessionView.Reliable(state, st.messagesAccepted(), st.messagesDelivered(), st.packetsSent(),
                                st.retransmissions(), st.timeouts(), st.congestionWindow(), st.advertisedWindow(),
                                st.sendBuffered(), st.receiveHeld(), st.srttNanos() > 0 ? st.srttNanos() / 1e6 : null),
                        null));
            }
            for (RealTimeFlowStatistics f : engine.realTimeFlows()) {
                // The route back to the source, reversed: the hops the source's packets cross to here.
                List<NodeId> path = new ArrayList<>(engine.router().path(NodeId.ofName(f.sourceName()), FLOW_METRIC));
                Collections.reverse(path);
                flows.add(new Flow(f, path,
                        path.stream().map(id -> database.nameOf(id).orElse(null)).toList()));
            }
            return null;
        });
        for (Flow flow : flows) {
            RealTimeFlowStatistics f = flow.stats();
            list.add(new SessionView(SessionView.Kind.REAL_TIME, self.name(), f.port(), f.sourceName(),
                    f.sourcePort(), null, new SessionView.RealTime(f.received(), f.lost(), recovered(nodes, flow),
                            f.late(), f.lossRate(), f.p50DelayNanos() / 1e6, f.p99DelayNanos() / 1e6,
                            f.jitterNanos() / 1e6, flow.names().contains(null) ? List.of() : flow.names())));
        }
        return list;
    }

    /**
     * Recoveries on every hop of the flow's path, or null when the path is unknown or a hop's
     * receiving end is not in this process (a partial count would understate the repair).
     */
    private static Long recovered(LocalNodes nodes, Flow flow) {
        if (flow.path().size() < 2) {
            return null;
        }
        long sum = 0;
        for (int i = 1; i < flow.path().size(); i++) {
            String receiver = flow.names().get(i);
            OverlayNode node = receiver == null ? null : nodes.get(receiver);
            if (node == null) {
                return null;
            }
            NodeId from = flow.path().get(i - 1);
            Long r = node.inspect(engine -> {
                RealTimeChannel c = engine.realTimeChannel(from);
                return c == null ? 0L : c.recovered();
            });
            sum += r;
        }
        return sum;
    }
}
