package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Optional;
import net.hopwise.overlay.security.Admission.Verdict;

/**
 * The handshake messages as they arrive (INIT goes to the {@code Responder}; COOKIE and RESPONSE at
 * the initiator, FINAL at the responder complete a handshake here) and the check that binds the
 * authenticated static key to an admitted node name.
 */
final class Handshakes {
    private Handshakes() {}

    /**
     * A handshake message ({@code type}, {@code n} bytes at {@code datagram}'s position): handled, or
     * false when it is malformed (for the caller to count).
     */
    static boolean onMessage(LinkSecurity ls, InetSocketAddress from, java.nio.ByteBuffer datagram, byte type, int n,
            long now) {
        if (n > SecureWire.MAX_HANDSHAKE_BYTES) {
            return false;
        }
        byte[] b = new byte[n];
        datagram.get(datagram.position(), b);
        switch (type) {
            case SecureWire.INIT -> {
                if (n != SecureWire.INIT_BYTES) {
                    return false;
                }
                ls.responder().onInit(from, b, now);
            }
            case SecureWire.COOKIE -> {
                if (n != SecureWire.COOKIE_REPLY_BYTES) {
                    return false;
                }
                onCookie(ls, from, b, now);
            }
            case SecureWire.RESPONSE -> {
                if (n < 9 + NoiseXX.MESSAGE2_OVERHEAD) {
                    return false;
                }
                onResponse(ls, from, b, now);
            }
            case SecureWire.FINAL -> {
                if (n < 5 + NoiseXX.MESSAGE3_OVERHEAD) {
                    return false;
                }
                onFinal(ls, from, b, now);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    static void onCookie(LinkSecurity ls, InetSocketAddress from, byte[] b, long now) {
        Peer p = ls.table().initiation(SecureWire.getInt(b, 1));
        if (p == null || !from.equals(p.address)) {
            ls.drop(DropReason.HANDSHAKE);
            return;
        }
        Initiation i = p.initiation;
        System.arraycopy(b, 5, i.message, 5 + NoiseXX.DH_BYTES, SecureWire.COOKIE_BYTES);
        i.lastSentNanos = now;
        ls.transmit(p.address, i.message.clone());
    }

    static void onResponse(LinkSecurity ls, InetSocketAddress from, byte[] b, long now) {
        int remoteIndex = SecureWire.getInt(b, 1);
        Peer p = ls.table().initiation(SecureWire.getInt(b, 5));
        if (p == null || !from.equals(p.address)) {
            ls.drop(DropReason.HANDSHAKE); // late, duplicated, or not ours
            return;
        }
        Initiation i = p.initiation;
        byte[] payload;
        try {
            payload = i.noise.readMessage(Arrays.copyOfRange(b, 9, b.length));
        } catch (HandshakeException e) {
            // Only a party that saw our INIT can get here; the attempt is spent, the timer starts another.
            ls.table().abortInitiation(p);
            ls.drop(DropReason.HANDSHAKE);
            return;
        }
        String refusal = refusal(ls, p.name, payload, i.noise.remoteStatic());
        if (refusal != null) {
            ls.table().abortInitiation(p);
            ls.rejected(from, p.name, refusal, now);
            return;
        }
        byte[] message3;
        byte[][] keys;
        try {
            message3 = i.noise.writeMessage(ls.localPayload());
            keys = i.noise.split();
        } catch (HandshakeException e) {
            ls.table().abortInitiation(p);
            ls.drop(DropReason.HANDSHAKE);
            return;
        }
        byte[] fin = new byte[5 + message3.length];
        fin[0] = SecureWire.FINAL;
        SecureWire.putInt(fin, 1, remoteIndex);
        System.arraycopy(message3, 0, fin, 5, message3.length);
        HandshakePayload peer = HandshakePayload.decode(payload).orElseThrow();
        Session s = new Session(ls.config().cipherSuite(), p.name, i.localIndex, remoteIndex, true, keys,
                ls.config().replayWindow(), now, peer.identityKey());
        s.peerCertificate = certificate(peer);
        s.finalMessage = fin;
        p.initiation = null; // its index lives on as the session's
        ls.transmitAfterInstall(p, s, from, fin, now);
    }

    static void onFinal(LinkSecurity ls, InetSocketAddress from, byte[] b, long now) {
        int index = SecureWire.getInt(b, 1);
        Responder.Pending pending = ls.responder().take(index, from);
        if (pending == null) {
            // Also a FINAL resent for a session already made: the initiator has not heard our data.
            // It is dropped like any other, since a session's index is in clear in every DATA datagram
            // and a FINAL naming it proves nothing; but the session's peer, at its known address and at
            // most once a retry interval, gets an empty sealed datagram, so that an initiator on a link
            // quiet in our direction learns its session was made (and one whose FINAL was refused,
            // hearing nothing, starts again after the handshake timeout).
            ls.drop(DropReason.HANDSHAKE);
            ls.confirmIfMade(index, now);
            return;
        }
        byte[] payload;
        try {
            payload = pending.noise().readMessage(Arrays.copyOfRange(b, 5, b.length));
        } catch (HandshakeException e) {
            ls.drop(DropReason.HANDSHAKE);
            return;
        }
        Optional<HandshakePayload> claimed = HandshakePayload.decode(payload);
        String name = claimed.map(HandshakePayload::name).orElse("?");
        Peer p = ls.peer(name);
        String refusal = p == null ? "not a neighbour of this node" : refusal(ls, name, payload, pending.noise().remoteStatic());
        if (refusal != null) {
            ls.rejected(from, name, refusal, now);
            return;
        }
        byte[][] keys;
        try {
            keys = pending.noise().split();
        } catch (HandshakeException e) {
            ls.drop(DropReason.HANDSHAKE);
            return;
        }
        // Both ends started at once: ours is redundant now; dropping it keeps one handshake per rekey.
        ls.table().abortInitiation(p);
        Session s = new Session(ls.config().cipherSuite(), name, index, pending.remoteIndex(), false, keys, ls.config().replayWindow(), now,
                claimed.get().identityKey());
        s.peerCertificate = certificate(claimed.get());
        ls.install(p, s, from, now);
    }

    /** Checks every link's peer under {@code admission}; cuts off those it refuses and returns their names. */
    static java.util.List<String> readmit(LinkSecurity ls, java.util.Collection<Peer> peers, Admission admission) {
        java.util.List<String> cut = new java.util.ArrayList<>();
        long wall = ls.config().wallClockSeconds().getAsLong();
        for (Peer p : peers) {
            Session s = p.current;
            if (s == null) {
                continue;
            }
            Verdict v = admission.check(p.name, s.peerIdentity, s.peerCertificate, wall);
            if (!v.admitted()) {
                ls.cutOff(p);
                cut.add(p.name);
                System.getLogger(LinkSecurity.class.getName()).log(System.Logger.Level.WARNING, "link security: "
                        + p.name + " is no longer admitted (" + v + "); its link loses its keys");
            }
        }
        return cut;
    }

    private static NodeCertificate certificate(HandshakePayload h) {
        return h.certificate() == null ? null : NodeCertificate.decode(h.certificate()).orElse(null);
    }

    /** Why the peer that proved {@code staticKey} may not be {@code expectedName}, or null when it may. */
    private static String refusal(LinkSecurity ls, String expectedName, byte[] payload, byte[] staticKey) {
        Optional<HandshakePayload> decoded = HandshakePayload.decode(payload);
        if (decoded.isEmpty()) {
            return "malformed identity";
        }
        HandshakePayload h = decoded.get();
        if (!h.name().equals(expectedName)) {
            return "it claims the name '" + h.name() + "'";
        }
        if (h.name().equals(ls.config().name())) {
            return "it claims this node's own name";
        }
        if (!NodeKeys.verifyLinkKeyBinding(h.identityKey(), staticKey, h.linkKeyBinding())) {
            return "its link key is not signed by its identity key";
        }
        NodeCertificate cert = null;
        if (h.certificate() != null) {
            cert = NodeCertificate.decode(h.certificate()).orElse(null);
            if (cert == null) {
                return "malformed certificate";
            }
        }
        Verdict v = ls.config().admission().check(h.name(), h.identityKey(), cert, ls.config().wallClockSeconds().getAsLong());
        return v.admitted() ? null : "not admitted: " + v + " (key " + Crypto.fingerprint(h.identityKey()) + ")";
    }
}
