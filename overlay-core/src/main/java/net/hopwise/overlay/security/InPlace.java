package net.hopwise.overlay.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;

/**
 * Whether a datagram handed over for sealing may carry its own sealed bytes: then the sealed datagram
 * leaves in the very buffer the plaintext came in, without a buffer allocated and another released
 * per datagram on the sending loop, the thread that limits a sealed link's goodput.
 */
final class InPlace {
    private InPlace() {}

    /**
     * True when {@code datagram} is a direct buffer that nothing else can read (its count, and that of
     * every buffer under it, is the one handed over: a buffer that another holder keeps a view of, such
     * as a packet queued for retransmission and sent as a duplicate, has a count of two somewhere) and
     * that holds {@code sealedLength} bytes from its reader index without being moved. Composites are
     * refused: their parts are often shared bodies. Heap buffers are refused too: an array may be
     * reachable from elsewhere without any count, and the socket would copy them anyway.
     */
    static boolean reusable(ByteBuf datagram, int sealedLength) {
        if (!datagram.isDirect() || datagram.isReadOnly()
                || datagram.maxFastWritableBytes() + datagram.readableBytes() < sealedLength) {
            return false;
        }
        for (ByteBuf b = datagram; b != null; b = b.unwrap()) {
            if (b instanceof CompositeByteBuf || b.refCnt() != 1) {
                return false;
            }
        }
        return true;
    }
}
