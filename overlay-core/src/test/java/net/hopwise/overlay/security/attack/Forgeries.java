package net.hopwise.overlay.security.attack;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Random;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.wire.PacketType;
import net.hopwise.overlay.wire.WireHeader;

/**
 * Datagrams an attacker makes, after the link security wire format as docs/security.md publishes it
 * ("Wire format"): written from the document, not from the code, as an attacker would.
 */
final class Forgeries {
    static final int INIT = 0xA1;
    static final int COOKIE = 0xA2;
    static final int RESPONSE = 0xA3;
    static final int FINAL = 0xA4;
    static final int DATA = 0xA5;
    /** type, sender index, ephemeral key, cookie */
    static final int INIT_BYTES = 1 + 4 + 32 + 16;
    static final int COOKIE_BYTES = 16;
    /** type, receiver index, counter */
    static final int DATA_HEADER_BYTES = 1 + 4 + 8;
    static final int TAG_BYTES = 16;

    private Forgeries() {}

    static int type(byte[] d) {
        return d.length == 0 ? -1 : d[0] & 0xFF;
    }

    /** The receiver's index a DATA or FINAL datagram names. */
    static int receiverIndex(byte[] d) {
        return getInt(d, 1);
    }

    static long counter(byte[] d) {
        long c = 0;
        for (int i = 0; i < 8; i++) {
            c = c << 8 | (d[5 + i] & 0xFF);
        }
        return c;
    }

    /** A first handshake message with a fresh index and ephemeral key; its cookie zero or made up. */
    static byte[] init(Random random, boolean madeUpCookie) {
        byte[] d = new byte[INIT_BYTES];
        random.nextBytes(d);
        d[0] = (byte) INIT;
        if (!madeUpCookie) {
            java.util.Arrays.fill(d, INIT_BYTES - COOKIE_BYTES, INIT_BYTES, (byte) 0);
        } else {
            d[INIT_BYTES - 1] |= 1; // never all zeros: that would ask for a cookie, not present one
        }
        return d;
    }

    /** The same INIT with the cookie a responder gave for it. */
    static byte[] withCookie(byte[] init, byte[] cookieReply) {
        byte[] d = init.clone();
        System.arraycopy(cookieReply, 5, d, INIT_BYTES - COOKIE_BYTES, COOKIE_BYTES);
        return d;
    }

    /** A DATA datagram for {@code index} with a counter and random bytes for ciphertext and tag. */
    static byte[] sealedLooking(Random random, int index, long counter, int ciphertextBytes) {
        byte[] d = new byte[DATA_HEADER_BYTES + ciphertextBytes + TAG_BYTES];
        random.nextBytes(d);
        d[0] = (byte) DATA;
        putInt(d, 1, index);
        for (int i = 0; i < 8; i++) {
            d[5 + i] = (byte) (counter >>> (56 - 8 * i));
        }
        return d;
    }

    static byte[] flip(byte[] d, int bit) {
        byte[] c = d.clone();
        c[bit / 8] ^= (byte) (1 << (bit % 8));
        return c;
    }

    /** A node's plaintext frame, as a node without link security would send it. */
    static byte[] plaintext(PacketType type, String from, String to, byte[] body) {
        ByteBuf b = Unpooled.buffer(WireHeader.MAX_DATAGRAM);
        try {
            WireHeader.write(b, type, 0, NodeId.ofName(from).value(), NodeId.ofName(to).value(), 1);
            b.writeBytes(body);
            WireHeader.finish(b, 0);
            byte[] d = new byte[b.readableBytes()];
            b.readBytes(d);
            return d;
        } finally {
            b.release();
        }
    }

    /** A plaintext link-state update frame of one advertisement, from {@code from} to its neighbour {@code to}. */
    static byte[] linkStateUpdate(String from, String to, net.hopwise.overlay.routing.LinkStateAdvertisement advertisement) {
        ByteBuf frame = Unpooled.buffer(WireHeader.MAX_DATAGRAM);
        try {
            WireHeader.write(frame, PacketType.LINK_STATE_UPDATE, 0, NodeId.ofName(from).value(), NodeId.ofName(to).value(), 1);
            net.hopwise.overlay.routing.LinkStateCodec.encodeUpdate(
                    new net.hopwise.overlay.routing.LinkStateUpdate(java.util.List.of(advertisement)), frame);
            WireHeader.finish(frame, 0);
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            return bytes;
        } finally {
            frame.release();
        }
    }

    /** A plaintext link-state extension frame of one record, from {@code from} to its neighbour {@code to}. */
    static byte[] extensionUpdate(String from, String to, net.hopwise.overlay.routing.ExtensionRecord record) {
        ByteBuf frame = Unpooled.buffer(WireHeader.MAX_DATAGRAM);
        try {
            WireHeader.write(frame, PacketType.LINK_STATE_EXTENSION, 0, NodeId.ofName(from).value(), NodeId.ofName(to).value(), 1);
            net.hopwise.overlay.routing.ExtensionCodec.encodeUpdate(
                    new net.hopwise.overlay.routing.ExtensionUpdate(java.util.List.of(record)), frame);
            WireHeader.finish(frame, 0);
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            return bytes;
        } finally {
            frame.release();
        }
    }

    /** Whether {@code needle} appears anywhere in {@code hay}. */
    static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
