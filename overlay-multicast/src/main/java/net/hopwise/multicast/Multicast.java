package net.hopwise.multicast;

import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/**
 * Best-effort group communication on an overlay node: fetched with {@code
 * OverlayNode.module(Multicast.class)} from a node with a {@link MulticastModule}. Callable from any
 * thread.
 *
 * <p>An application joins a group on a port and receives every message any node sends to that group
 * and port; sending needs no membership. Messages follow the source's shortest-path tree under the
 * send's metric, pruned to the member nodes; they may be lost, and a node whose view of the group or
 * the routes is still changing may miss a message, but a message is never delivered twice to one
 * member while the routes stand still, nor corrupted or cut.
 */
public interface Multicast {
    /** Ports are 16 bits: 0-65535. */
    int MAX_PORT = 0xFFFF;

    /**
     * Joins a group on a port. The node floods its membership when its first local member of the group
     * joins; messages sent before the flood reaches a source are not delivered here.
     *
     * @throws IllegalArgumentException for a bad group name or port
     * @throws IllegalStateException when the node is stopped, or holds as many groups as its
     *     membership records carry (see {@code docs/multicast.md})
     */
    Membership join(String group, int port, MessageHandler handler);

    /**
     * Sends to a group's members on a port, along trees of the node's default metric. Under flow
     * control the sends of one group, port and metric share one sender (see {@link #sender}). Never
     * blocks: {@code BLOCKED} while the node holds as many messages not yet sent as it may (see {@link
     * GroupSender}).
     */
    SendResult send(String group, int port, byte[] payload);

    /** Sends to a group's members on a port, along trees of {@code metric}. */
    SendResult send(String group, int port, RoutingMetric metric, byte[] payload);

    /**
     * A sender of its own for a group and port along trees of the node's default metric: under
     * Cost-Benefit flow control each sender is a client with its own budget (see {@link GroupSender}).
     *
     * @throws IllegalArgumentException for a bad group name or port
     * @throws IllegalStateException when the node is stopped
     */
    GroupSender sender(String group, int port);

    /** As {@link #sender(String, int)}, along trees of {@code metric}. */
    GroupSender sender(String group, int port, RoutingMetric metric);

    /**
     * The sender of a reliable stream to a group's port along trees of {@code metric} (null: the node's
     * default): every member node receives each message exactly once and in order, from its join for
     * as long as it stays a member, and {@code policy} says what happens to a member node that cannot
     * keep up. One stream per group, port and metric at a node: a second call returns the same
     * sender, with the policy of the first. Back-pressure as {@link GroupSender} describes it. See
     * {@code docs/multicast.md}.
     *
     * @throws IllegalArgumentException for a bad group name or port
     * @throws IllegalStateException when the node is stopped
     */
    GroupSender reliableSender(String group, int port, RoutingMetric metric, SlowMemberPolicy policy);

    /**
     * Sends a message on the reliable stream of the group's port along trees of the default metric,
     * slowing the group to its slowest member: {@code BLOCKED} while the window is full (use a {@link
     * #reliableSender} and its writability to send as fast as the group takes).
     */
    default SendResult sendReliable(String group, int port, byte[] payload) {
        try {
            return reliableSender(group, port, null, SlowMemberPolicy.SLOW_GROUP).send(payload);
        } catch (IllegalArgumentException e) {
            return SendResult.refused(SendResult.Status.INVALID, e.getMessage());
        } catch (IllegalStateException e) {
            return SendResult.refused(SendResult.Status.STOPPED, e.getMessage());
        }
    }

    /**
     * The tree a message from {@code source} to the group follows under {@code metric} (null: the node's
     * default), as this node computes it for forwarding: the source's shortest-path tree with unicast's
     * tie-breaking, pruned to the group's member nodes. Computed on the node's thread; for views such as
     * the admin dashboard's.
     */
    java.util.concurrent.CompletableFuture<java.util.List<TreeLink>> tree(String group, NodeId source,
            RoutingMetric metric);

    /**
     * The real-time sender of this node to a group's port, for audio and video conferences: packets
     * go down the source's tree of {@code metric} (null: the node's default) on the links' real-time
     * channels, which resend a lost packet once, hop by hop, only while it can still arrive before
     * {@code deadline} (null: {@link RealTimeGroupSender#DEFAULT_DEADLINE}) after its send; member
     * nodes deliver each packet at most once and drop those that arrive later than that. One stream
     * per group, port and metric at a node: a second call returns the same sender, with the deadline
     * of the first. See {@code docs/multicast.md}.
     *
     * @throws IllegalArgumentException for a bad group name, port or deadline
     * @throws IllegalStateException when the node is stopped
     */
    RealTimeGroupSender realTimeSender(String group, int port, RoutingMetric metric, java.time.Duration deadline);

    /**
     * The real-time streams of a group this node receives as a member node, one per source, port and
     * metric: delay, loss, late, recovered, duplicates and jitter (see {@link RealTimeMemberStatistics});
     * empty once the node stopped.
     */
    java.util.List<RealTimeMemberStatistics> realTimeStatistics(String group);

    /** The reliable streams of a group this node sends, relays or delivers, with their counts. */
    java.util.List<ReliableStatistics> reliableStatistics(String group);

    /**
     * The link costs of Cost-Benefit flow control as this node knows them, by advertising node then
     * neighbour; links that cost nothing are left out, and so is everything without flow control.
     */
    Map<NodeId, Map<NodeId, Double>> linkCosts();

    /**
     * This node's reliable session ends as clients of Cost-Benefit flow control; empty unless the
     * module runs it over unicast sessions ({@link MulticastModule#withUnicastCostBenefit}).
     */
    default java.util.List<UnicastClientStatistics> unicastClients() {
        return java.util.List.of();
    }

    /** This node's outgoing links under flow control, as the last cost update saw them; empty without. */
    java.util.List<LinkBuffer> linkBuffers();

    /** This node's counts for a group. */
    GroupStatistics statistics(String group);

    /** The nodes this node knows as members of a group, itself included when it is one. */
    Set<NodeId> memberNodes(String group);

    /** Every group this node knows a member node of, with those nodes: the node-level membership view. */
    Map<GroupId, Set<NodeId>> view();

    /**
     * This node's layered multicast service (ERA sessions, relay queueing, the receivers held), as
     * {@code OverlayNode.module(LayeredMulticast.class)} also gives it.
     */
    net.hopwise.multicast.layered.LayeredMulticast layered();

    /**
     * Starts a layered session (ERA congestion control) from this node to a group's port, with
     * {@link net.hopwise.multicast.layered.EraConfig#recommended()} and the node's default metric: each
     * receiver takes as many of the cumulative {@code layers} as its path carries. See {@link
     * net.hopwise.multicast.layered.LayeredMulticast#openSender}.
     */
    default net.hopwise.multicast.layered.LayeredSender openLayeredSender(String group, int port,
            net.hopwise.multicast.layered.LayerRates layers) {
        return openLayeredSender(group, port, layers, net.hopwise.multicast.layered.EraConfig.recommended());
    }

    /** As {@link #openLayeredSender(String, int, net.hopwise.multicast.layered.LayerRates)}, with {@code config}. */
    default net.hopwise.multicast.layered.LayeredSender openLayeredSender(String group, int port,
            net.hopwise.multicast.layered.LayerRates layers, net.hopwise.multicast.layered.EraConfig config) {
        return layered().openSender(group, port, layers, config, null);
    }

    /**
     * Receives the layered session announced on a group's port, at the level the path allows, with
     * {@link net.hopwise.multicast.layered.EraConfig#recommended()} (TCP-friendly with the tree's
     * measured round trip; {@code EraConfig.thesis()} is the thesis's receiver, which starves beside
     * TCP with a measured round trip); the returned receiver's level and rate are observable. See
     * {@link net.hopwise.multicast.layered.LayeredMulticast#join}.
     */
    default net.hopwise.multicast.layered.LayeredReceiver joinLayered(String group, int port,
            net.hopwise.multicast.layered.LayeredHandler handler) {
        return joinLayered(group, port, net.hopwise.multicast.layered.EraConfig.recommended(), handler);
    }

    /** As {@link #joinLayered(String, int, net.hopwise.multicast.layered.LayeredHandler)}, with {@code config}. */
    default net.hopwise.multicast.layered.LayeredReceiver joinLayered(String group, int port,
            net.hopwise.multicast.layered.EraConfig config, net.hopwise.multicast.layered.LayeredHandler handler) {
        return layered().join(group, port, config, handler);
    }
}
