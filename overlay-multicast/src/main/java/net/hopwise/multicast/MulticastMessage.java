package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;

/**
 * One message delivered to a local member: whole (reassembled when it travelled in fragments), its
 * bytes the member's own.
 *
 * @param source the node whose application sent it
 * @param sourceName that node's name as this node's link state knows it
 * @param messageId the source's number for the message (32 bits, wrapping)
 */
public record MulticastMessage(NodeId source, String sourceName, GroupId group, int port, long messageId,
        byte[] payload) {}
