package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;

/** One link of a source's tree for a group: messages go from {@code parent} to {@code child}. */
public record TreeLink(NodeId parent, NodeId child) {}
