package net.hopwise.overlay.reliable;

/**
 * The acknowledgement state of one link direction, as carried by a {@code LINK_ACK} packet or
 * piggybacked on reliable data going the other way.
 *
 * @param epoch the sender epoch being acknowledged; 0 when the receiver has seen nothing yet
 * @param cumulative the next link sequence number expected: everything below it arrived
 * @param blocks selectively acknowledged ranges above it, as {start, end (exclusive)} pairs of wire
 *     sequence numbers, lowest first
 */
public record LinkAck(long epoch, int cumulative, int[] blocks) {
    /** Number of selective-acknowledgement blocks. */
    public int blockCount() {
        return blocks.length / 2;
    }
}
