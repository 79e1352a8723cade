package net.hopwise.multicast;

import net.hopwise.overlay.NodeId;

/**
 * One reliable stream as one node sees it: the source's send cache, a relay's repair cache, or a
 * member node's delivery.
 *
 * @param source the stream's sender
 * @param role {@code source}, {@code member} (this node delivers it) or {@code relay}
 * @param next a member's delivery point, the source's next sequence, a relay's first missing one
 * @param acknowledged how far the subtree below this node has received (at the source: the slowest member)
 * @param held packets kept for repair and reordering now
 * @param received packets that arrived new
 * @param duplicates packets that arrived again (resent by a hop or by a repair) and were dropped
 * @param delivered messages delivered to local members (once per message, however many members)
 * @param gaps sequences this node found missing
 * @param nacksSent NACK datagrams this node sent its parent
 * @param nacksReceived NACK datagrams its children sent it
 * @param nacksSuppressed sequences children asked for that this node did not pass upstream or answer
 *     (it had asked already, or had just sent them)
 * @param repairsSent packets resent to a child from this node's cache
 * @param squelches times the source answered that it no longer keeps a packet asked for
 * @param membersDropped local members dropped because this node could not keep up
 */
public record ReliableStatistics(NodeId source, int port, String role, long next, long acknowledged, int held,
        long received, long duplicates, long delivered, long gaps, long nacksSent, long nacksReceived,
        long nacksSuppressed, long repairsSent, long squelches, long membersDropped) {}
