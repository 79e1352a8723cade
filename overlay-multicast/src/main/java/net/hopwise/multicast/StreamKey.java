package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.RoutingMetric;

/** One reliable stream: a source's sends to a group's port along the trees of one metric. */
record StreamKey(NodeId source, GroupId group, int port, RoutingMetric metric) {
    GroupTrees.Key tree() {
        return new GroupTrees.Key(source, group, metric);
    }
}
