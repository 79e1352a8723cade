package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * A node's link security, sans-IO: handshakes with each neighbour, sealing what goes to it and
 * opening what comes from it. It reads no clock (every call carries {@code nowNanos}) and does no
 * I/O: handshake datagrams go to the {@link Outbox}, drops to the {@link Drops}. One instance per
 * node, used on the node's thread only.
 *
 * <p>The indexes that name sessions and handshakes are kept by {@code SessionTable}; the message
 * handlers live in {@code Handshakes} and {@code Responder}, and refusals are logged, rate-limited,
 * by {@code RefusalLog}.
 *
 * <p>About 450 lines, over the house's 400: what is left here is each peer's session life cycle
 * (install, confirm, rekey, abandon, expire) and its timer, which share the peer's state; the pieces
 * that stand alone are already split out as above.
 */
public final class LinkSecurity {
    /** Where handshake datagrams go (to the socket, past every datagram stage). */
    public interface Outbox {
        void send(InetSocketAddress to, byte[] datagram);
    }

    /** Where drops are counted. */
    public interface Drops {
        void drop(DropReason reason);
    }

    /** What happened to a link, on the node's thread. */
    public interface Listener {
        /** A handshake completed: datagrams to {@code peer} can be sealed now. */
        default void established(String peer, InetSocketAddress address, boolean rekey) {}

        /** An authenticated datagram of {@code peer} came from a new address. */
        default void addressChanged(String peer, InetSocketAddress from, InetSocketAddress to) {}

        /** A replay, a forgery or a rejected handshake was counted for {@code peer}, which may never have had keys. */
        default void refusalCounted(String peer) {}
    }

    /** A link as an operator sees it. */
    public record PeerStatus(String name, boolean authenticated, String fingerprint, InetSocketAddress address,
            long handshakes, long rekeys, long sessionAgeNanos, long replays, long forgeries, long rejections) {}


    private SecurityConfig config;
    private final Outbox outbox;
    private final Drops drops;
    private final Listener listener;
    private byte[] localPayload;
    private final Responder responder;
    private final Map<String, Peer> peers = new HashMap<>();
    private final SessionTable table = new SessionTable();
    private final RefusalLog refusals = new RefusalLog();
    private final long retryNanos;
    private final long timeoutNanos;
    private final long rekeyNanos;
    private final long rejectNanos;
    /** Written on the node's thread only; read by meters from others. */
    private volatile long cookieReplies;
    /**
     * {@link #nextDeadlineNanos()}'s answer while {@code deadlineKnown}. The node asks after every
     * datagram, and data never moves a deadline: only handshakes, timers and changes of peers or
     * admission do, and each of those forgets the answer.
     */
    private long deadline;
    private boolean deadlineKnown;

    public LinkSecurity(SecurityConfig config, Outbox outbox, Drops drops, Listener listener) {
        this.config = config;
        this.outbox = outbox;
        this.drops = drops;
        this.listener = listener;
        this.localPayload = payload(config);
        this.responder = new Responder(this, config);
        this.retryNanos = config.handshakeRetry().toNanos();
        this.timeoutNanos = config.handshakeTimeout().toNanos();
        this.rekeyNanos = config.rekeyAfter().toNanos();
        this.rejectNanos = config.rejectAfter().toNanos();
    }

    /** Bytes sealing adds to a datagram. */
    public static int overhead() {
        return SecureWire.DATA_OVERHEAD;
    }

    /** A neighbour this node may link with, and where to reach it first. */
    public void addPeer(String name, InetSocketAddress address) {
        // Asked before every datagram sent: a plain lookup, without a capturing lambda per call.
        if (peers.get(name) == null) {
            peers.put(name, new Peer(name, address));
            deadlineKnown = false;
        }
    }

    /** Forgets a neighbour and its keys. */
    public void removePeer(String name) {
        deadlineKnown = false;
        Peer p = peers.remove(name);
        if (p != null) {
            cutOff(p);
        }
    }

    /**
     * Seals {@code plaintext} for {@code peer} into {@code out} (room: its size plus {@link #overhead()}).
     * Returns false when there is no usable session: a handshake is under way then (started if need
     * be), and the caller holds or drops the datagram.
     */
    public boolean seal(String peer, ByteBuffer plaintext, ByteBuffer out, long now) {
        Peer p = peers.get(peer);
        if (p == null) {
            return false;
        }
        Session s = p.current;
        if (s == null || s.age(now) >= rejectNanos || s.sent() >= config.rejectAfterPackets()) {
            startHandshake(p, now);
            return false;
        }
        if (needsRekey(s, now)) {
            startHandshake(p, now);
        }
        s.seal(plaintext, out);
        return true;
    }

    /**
     * Takes an arriving datagram. Returns the name of the peer whose data was opened into {@code out},
     * or null when there is nothing to deliver (a handshake message, handled; or a drop, counted).
     */
    public String receive(InetSocketAddress from, ByteBuffer datagram, ByteBuffer out, long now) {
        int n = datagram.remaining();
        if (n < 1) {
            drop(DropReason.MALFORMED);
            return null;
        }
        byte type = datagram.get(datagram.position());
        if (type == SecureWire.DATA) {
            return n < SecureWire.DATA_OVERHEAD ? malformed() : onData(from, datagram, out, now);
        }
        if (!Handshakes.onMessage(this, from, datagram, type, n, now)) {
            drop(DropReason.MALFORMED);
        }
        deadlineKnown = false; // once the handshake's state has changed, in case it was asked meanwhile
        return null;
    }

    /** The next instant at which {@link #onTimer} has work. */
    public long nextDeadlineNanos() {
        if (!deadlineKnown) {
            deadline = earliestDeadline();
            deadlineKnown = true;
        }
        return deadline;
    }

    private long earliestDeadline() {
        long next = responder.nextDeadline();
        for (Peer p : peers.values()) {
            if (p.initiation != null) {
                next = Math.min(next, Math.min(p.initiation.lastSentNanos + retryNanos, p.initiation.startedNanos + timeoutNanos));
            }
            if (p.current != null && p.current.finalMessage != null) {
                next = Math.min(next, Math.min(p.lastFinalSentNanos + retryNanos, p.current.createdNanos + timeoutNanos));
            }
            for (Session s : new Session[] {p.current, p.previous}) {
                if (s != null) {
                    next = Math.min(next, s.createdNanos + rejectNanos);
                }
            }
        }
        return next;
    }

    public void onTimer(long now) {
        responder.expire(now);
        for (Peer p : peers.values()) {
            Initiation i = p.initiation;
            if (i != null && now - i.startedNanos >= timeoutNanos) {
                table.abortInitiation(p);
                startHandshake(p, now); // fresh keys: the old attempt may be stuck on a stale cookie
            } else if (i != null && now - i.lastSentNanos >= retryNanos) {
                i.lastSentNanos = now;
                outbox.send(p.address, i.message.clone());
            }
            if (p.current != null && p.current.finalMessage != null && p.current.age(now) >= timeoutNanos) {
                // Never confirmed: the responder refused our FINAL (it did not know us yet, or lost its
                // half), so resending it cannot help. Fall back to the session it replaced, if any, and
                // start afresh rather than wait for the reject age.
                abandonUnconfirmed(p);
                startHandshake(p, now);
            } else if (p.current != null && p.current.finalMessage != null && now - p.lastFinalSentNanos >= retryNanos) {
                p.lastFinalSentNanos = now;
                outbox.send(p.address, p.current.finalMessage.clone());
            }
            if (p.previous != null && p.previous.age(now) >= rejectNanos) {
                table.retire(p.previous);
                p.previous = null;
            }
            if (p.current != null && p.current.age(now) >= rejectNanos) {
                table.retire(p.current);
                p.current = null;
            }
        }
        deadlineKnown = false;
    }

    /**
     * Replaces what this node admits (a new trust list, a revoked key or certificate) and checks every
     * link again at once: a link whose peer is no longer admitted loses its keys, so nothing it sends
     * is opened any more and its next handshake is refused. Returns the peers cut off.
     */
    public java.util.List<String> updateAdmission(Admission admission, long now) {
        config = config.withAdmission(admission);
        java.util.List<String> cut = Handshakes.readmit(this, peers.values(), admission);
        deadlineKnown = false;
        return cut;
    }

    /**
     * Presents {@code renewed} in this node's handshakes from now on. Links keep their sessions; each
     * peer takes the new certificate at the link's next handshake, a rekey at the latest.
     */
    public void renewCertificate(NodeCertificate renewed) {
        config = config.withCertificate(renewed);
        localPayload = payload(config);
    }

    private static byte[] payload(SecurityConfig config) {
        NodeKeys keys = config.keys();
        return new HandshakePayload(config.name(), keys.identityPublic(), keys.linkKeyBinding(),
                config.certificate() == null ? null : config.certificate().encode()).encode();
    }

    /** The address the peer last proved itself from, or where it is configured before that. */
    public InetSocketAddress address(String peer) {
        Peer p = peers.get(peer);
        return p == null ? null : p.address;
    }

    public PeerStatus status(String peer, long now) {
        Peer p = peers.get(peer);
        if (p == null) {
            return null;
        }
        Session s = p.current;
        boolean up = s != null && s.age(now) < rejectNanos;
        return new PeerStatus(p.name, up, s == null ? null : Crypto.fingerprint(s.peerIdentity), p.address,
                p.handshakes, p.rekeys, up ? s.age(now) : -1, p.replays, p.forgeries, p.rejections);
    }

    /**
     * Counts a datagram that opened under {@code peer}'s keys but was not its own to send (its
     * header names another sender): a forgery by an admitted peer.
     */
    public void forgedSender(String peer) {
        Peer p = peers.get(peer);
        if (p != null) {
            p.forgeries++;
            listener.refusalCounted(peer);
        }
    }

    /** Cookie replies sent: INITs without a valid cookie, answered statelessly (a flood shows here). */
    public long cookieReplies() {
        return cookieReplies;
    }

    /** Handshake state this node keeps for others: pending responses (bounded by configuration). */
    public int pendingHandshakes() {
        return responder.pendingCount();
    }

    // ---- shared with Handshakes and Responder

    SecurityConfig config() {
        return config;
    }

    byte[] localPayload() {
        return localPayload;
    }

    byte[] linkPrivate() {
        return config.keys().linkPrivate();
    }

    Responder responder() {
        return responder;
    }

    Peer peer(String name) {
        return peers.get(name);
    }

    SessionTable table() {
        return table;
    }

    void transmit(InetSocketAddress to, byte[] datagram) {
        outbox.send(to, datagram);
    }

    void cookieReplied() {
        cookieReplies++; // one writer, the node's thread
    }

    void drop(DropReason reason) {
        drops.drop(reason);
    }

    void rejected(InetSocketAddress from, String claimed, String why, long now) {
        drop(DropReason.REJECTED);
        Peer p = peers.get(claimed);
        if (p != null) {
            p.rejections++;
            listener.refusalCounted(claimed);
        }
        refusals.refused(from, claimed, why, now);
    }

    /** Installs an initiator's session, then sends its FINAL (which the responder needs for it). */
    void transmitAfterInstall(Peer p, Session s, InetSocketAddress from, byte[] fin, long now) {
        table.initiated(s.localIndex);
        outbox.send(from, fin.clone()); // before any data sealed on the new session once it is installed
        install(p, s, from, now);
    }

    /** Makes {@code s} the peer's session for sending; the one it replaces still opens what is in flight. */
    void install(Peer p, Session s, InetSocketAddress from, long now) {
        deadlineKnown = false;
        boolean rekey = p.current != null;
        if (p.previous != null) {
            table.retire(p.previous);
        }
        p.previous = p.current;
        p.current = s;
        table.install(s);
        p.handshakes++;
        if (rekey) {
            p.rekeys++;
        }
        if (s.finalMessage != null) {
            p.lastFinalSentNanos = now;
        }
        moved(p, from);
        listener.established(p.name, from, rekey);
    }

    /** Answers a resent FINAL for a responder's session this node made (see {@code Handshakes.onFinal}). */
    void confirmIfMade(int localIndex, long now) {
        Session s = table.session(localIndex);
        Peer p = s == null ? null : peers.get(s.peer);
        if (p == null || s.initiator || p.current != s || s.age(now) >= rejectNanos
                || now < p.confirmAllowedFromNanos) {
            return;
        }
        p.confirmAllowedFromNanos = now + retryNanos;
        ByteBuffer out = ByteBuffer.allocate(SecureWire.DATA_OVERHEAD);
        s.seal(ByteBuffer.allocate(0), out);
        outbox.send(p.address, out.array());
    }

    private void abandonUnconfirmed(Peer p) {
        deadlineKnown = false;
        table.retire(p.current);
        p.current = p.previous;
        p.previous = null;
    }

    void cutOff(Peer p) {
        deadlineKnown = false;
        for (Session old : new Session[] {p.current, p.previous}) {
            if (old != null) {
                table.retire(old);
            }
        }
        p.current = null;
        p.previous = null;
        table.abortInitiation(p);
    }

    private void moved(Peer p, InetSocketAddress from) {
        if (!from.equals(p.address)) {
            InetSocketAddress old = p.address;
            p.address = from;
            listener.addressChanged(p.name, old, from);
        }
    }

    private boolean needsRekey(Session s, long now) {
        if (s.sent() >= config.rekeyAfterPackets()) {
            return true;
        }
        // The initiator of a session renews it; the responder only if that did not happen in time, so
        // that both ends do not start a handshake at once.
        long due = s.initiator ? rekeyNanos : rekeyNanos + (rejectNanos - rekeyNanos) / 2;
        return s.age(now) >= due;
    }

    private void startHandshake(Peer p, long now) {
        if (p.initiation != null) {
            return;
        }
        Initiation i = new Initiation(table.take(), NoiseXX.initiator(config.cipherSuite(), SecureWire.PROLOGUE, linkPrivate()), now);
        byte[] m;
        try {
            m = i.noise.writeMessage(new byte[0]);
        } catch (HandshakeException e) {
            throw new IllegalStateException("a fresh initiator cannot fail its first message", e);
        }
        i.message = new byte[SecureWire.INIT_BYTES];
        i.message[0] = SecureWire.INIT;
        SecureWire.putInt(i.message, 1, i.localIndex);
        System.arraycopy(m, 0, i.message, 5, m.length);
        table.initiate(p, i);
        deadlineKnown = false;
        outbox.send(p.address, i.message.clone());
    }

    private String onData(InetSocketAddress from, ByteBuffer datagram, ByteBuffer out, long now) {
        Session s = table.session(datagram.getInt(datagram.position() + 1));
        Peer p = s == null ? null : peers.get(s.peer);
        if (p == null) {
            drop(DropReason.UNKNOWN_SESSION);
            return null;
        }
        if (s.age(now) >= rejectNanos) {
            drop(DropReason.EXPIRED);
            return null;
        }
        int start = out.position();
        DropReason refused = s.open(datagram, out);
        if (refused != null) {
            drop(refused);
            if (refused == DropReason.REPLAY) {
                p.replays++;
            } else {
                p.forgeries++;
            }
            listener.refusalCounted(p.name);
            return null;
        }
        if (!s.confirmed) {
            s.confirmed = true;
            s.finalMessage = null;
            deadlineKnown = false;
        }
        moved(p, from);
        // An empty datagram only confirms the session (the answer to a resent FINAL): nothing to deliver.
        return out.position() == start ? null : p.name;
    }

    private String malformed() {
        drop(DropReason.MALFORMED);
        return null;
    }
}
