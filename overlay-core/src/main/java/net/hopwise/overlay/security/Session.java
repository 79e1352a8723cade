package net.hopwise.overlay.security;

import java.nio.ByteBuffer;

/**
 * One direction pair of keys from one handshake: how a link's datagrams are sealed and opened until
 * the next rekey. Nonces are the packet counters, sent in clear, so that loss and reordering cost
 * nothing; the replay window refuses a counter twice.
 *
 * <p>The 13-byte header is not associated data, as in WireGuard: each of its fields is bound without
 * it. The type byte chose this path, the receiver index chose the key, and the counter is the nonce,
 * so a datagram whose header was changed is opened under another key or nonce and its tag fails. The
 * associated data cost a tenth of a seal of 1000 bytes and a quarter of one of 64 (Java 17, AES-GCM).
 */
final class Session {
    final String peer;
    final int localIndex;
    final int remoteIndex;
    final boolean initiator;
    final long createdNanos;
    final byte[] peerIdentity;
    private final Aead sender;
    private final Aead receiver;
    private final ReplayWindow window;
    private final byte[] header = new byte[SecureWire.DATA_HEADER_BYTES];
    private static final ByteBuffer NO_AD = ByteBuffer.allocate(0);
    private long sendCounter;
    /** The certificate the peer presented, kept to check it again under a new admission; or null. */
    NodeCertificate peerCertificate;
    /** For an initiator: whether the responder has shown it has the keys (its first data). */
    boolean confirmed;
    /** For an initiator until confirmed: the FINAL message, resent should it have been lost. */
    byte[] finalMessage;

    Session(String peer, int localIndex, int remoteIndex, boolean initiator, byte[][] keys, int replayWindow,
            long nowNanos, byte[] peerIdentity) {
        this(CipherSuite.CHACHA_POLY, peer, localIndex, remoteIndex, initiator, keys, replayWindow, nowNanos, peerIdentity);
    }

    Session(CipherSuite suite, String peer, int localIndex, int remoteIndex, boolean initiator, byte[][] keys,
            int replayWindow, long nowNanos, byte[] peerIdentity) {
        this.peer = peer;
        this.localIndex = localIndex;
        this.remoteIndex = remoteIndex;
        this.initiator = initiator;
        this.createdNanos = nowNanos;
        this.peerIdentity = peerIdentity;
        this.sender = new Aead(suite, initiator ? keys[0] : keys[1]);
        this.receiver = new Aead(suite, initiator ? keys[1] : keys[0]);
        this.window = new ReplayWindow(replayWindow);
        this.confirmed = !initiator;
    }

    long sent() {
        return sendCounter;
    }

    long age(long nowNanos) {
        return nowNanos - createdNanos;
    }

    /**
     * Writes the sealed datagram of {@code plaintext} into {@code out}. With both on arrays, the header
     * is written where it goes and authenticated there, and {@code plaintext} may already sit right
     * behind it in {@code out}'s array: it is then sealed in place.
     */
    void seal(ByteBuffer plaintext, ByteBuffer out) {
        long counter = sendCounter++;
        if (plaintext.hasArray() && out.hasArray()) {
            byte[] o = out.array();
            int at = out.arrayOffset() + out.position();
            int n = plaintext.remaining();
            if (out.remaining() < SecureWire.DATA_OVERHEAD + n) {
                throw new IllegalArgumentException("no room for the sealed datagram");
            }
            writeHeader(o, at, counter);
            int w = sender.seal(counter, o, at, 0, plaintext.array(),
                    plaintext.arrayOffset() + plaintext.position(), n, o, at + SecureWire.DATA_HEADER_BYTES);
            plaintext.position(plaintext.limit());
            out.position(out.position() + SecureWire.DATA_HEADER_BYTES + w);
            return;
        }
        writeHeader(header, 0, counter);
        out.put(header);
        sender.seal(counter, NO_AD, plaintext, out);
    }

    private void writeHeader(byte[] b, int at, long counter) {
        b[at] = SecureWire.DATA;
        SecureWire.putInt(b, at + 1, remoteIndex);
        for (int i = 0; i < 8; i++) {
            b[at + 5 + i] = (byte) (counter >>> (56 - 8 * i));
        }
    }

    /**
     * Opens a DATA datagram (positioned at its start) into {@code out}; null when it opened, else the
     * reason it is dropped.
     */
    DropReason open(ByteBuffer datagram, ByteBuffer out) {
        int at = datagram.position();
        long counter = datagram.getLong(at + 5);
        if (!window.check(counter)) {
            return DropReason.REPLAY;
        }
        if (datagram.hasArray() && out.hasArray()) {
            byte[] d = datagram.array();
            int from = datagram.arrayOffset() + at;
            int w = receiver.open(counter, d, from, 0, d, from + SecureWire.DATA_HEADER_BYTES,
                    datagram.limit() - at - SecureWire.DATA_HEADER_BYTES, out.array(), out.arrayOffset() + out.position());
            if (w < 0) {
                return DropReason.FORGED;
            }
            out.position(out.position() + w);
        } else {
            ByteBuffer sealed = datagram.duplicate().position(at + SecureWire.DATA_HEADER_BYTES);
            int start = out.position();
            if (!receiver.open(counter, NO_AD, sealed, out)) {
                out.position(start);
                return DropReason.FORGED;
            }
        }
        window.accept(counter);
        datagram.position(datagram.limit());
        return null;
    }
}
