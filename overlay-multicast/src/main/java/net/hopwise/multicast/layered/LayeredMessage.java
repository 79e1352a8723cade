package net.hopwise.multicast.layered;

import net.hopwise.multicast.GroupId;
import net.hopwise.overlay.NodeId;

/**
 * What one data packet of a layered session carried for the application: the bytes the source
 * offered on that layer. Packets that carried none (the source had nothing queued, and sent padding
 * to keep the layer's rate) are not delivered.
 *
 * @param sequence the packet's number on its layer (wraps at 2^32), so the application sees its gaps
 */
public record LayeredMessage(NodeId source, GroupId group, int port, int sessionId, int layer, long sequence,
        byte[] payload) {}
