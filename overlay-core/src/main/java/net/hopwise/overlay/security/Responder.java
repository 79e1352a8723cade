package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The responder's half of the handshakes: cookies first, then at most a bounded number of pending
 * handshakes (the oldest gives way), each forgotten after the handshake timeout.
 */
final class Responder {
    /** A handshake this node answered and whose FINAL it awaits. */
    record Pending(NoiseXX noise, InetSocketAddress from, int remoteIndex, int localIndex, byte[] ephemeral,
            byte[] response, long createdNanos) {}

    private final LinkSecurity owner;
    private final CookieJar cookies;
    private final int maxPending;
    private final long timeoutNanos;
    private final CipherSuite suite;
    private final HandshakeBudget budget;
    private final LinkedHashMap<Integer, Pending> pending = new LinkedHashMap<>();
    private final Map<String, Integer> byInitiator = new HashMap<>();

    Responder(LinkSecurity owner, SecurityConfig config) {
        this.owner = owner;
        this.cookies = new CookieJar(config.cookieLifetime().toNanos());
        this.maxPending = config.maxPendingHandshakes();
        this.timeoutNanos = config.handshakeTimeout().toNanos();
        this.suite = config.cipherSuite();
        this.budget = new HandshakeBudget(config.handshakesPerAddress(), config.handshakesPerSecond());
    }

    int pendingCount() {
        return pending.size();
    }

    boolean isPending(int index) {
        return pending.containsKey(index);
    }

    void onInit(InetSocketAddress from, byte[] b, long now) {
        int senderIndex = SecureWire.getInt(b, 1);
        byte[] ephemeral = Arrays.copyOfRange(b, 5, 5 + NoiseXX.DH_BYTES);
        byte[] cookie = Arrays.copyOfRange(b, 5 + NoiseXX.DH_BYTES, b.length);
        if (!cookies.valid(from, senderIndex, ephemeral, cookie, now)) {
            if (!Arrays.equals(cookie, new byte[SecureWire.COOKIE_BYTES])) {
                owner.drop(DropReason.BAD_COOKIE);
            }
            byte[] reply = new byte[SecureWire.COOKIE_REPLY_BYTES];
            reply[0] = SecureWire.COOKIE;
            SecureWire.putInt(reply, 1, senderIndex);
            System.arraycopy(cookies.make(from, senderIndex, ephemeral, now), 0, reply, 5, SecureWire.COOKIE_BYTES);
            owner.cookieReplied();
            owner.transmit(from, reply);
            return;
        }
        String key = from + "/" + senderIndex;
        Integer known = byInitiator.get(key);
        if (known != null) {
            Pending p = pending.get(known);
            if (p != null && Arrays.equals(p.ephemeral(), ephemeral)) {
                owner.transmit(from, p.response()); // our RESPONSE was lost: the same again, no new work
                return;
            }
            forget(known);
        }
        if (!budget.take(from.getAddress(), now)) {
            owner.drop(DropReason.HANDSHAKE_RATE);
            return;
        }
        if (pending.size() >= maxPending) {
            forget(pending.keySet().iterator().next());
            owner.drop(DropReason.PENDING_LIMIT);
        }
        NoiseXX noise = NoiseXX.responder(suite, SecureWire.PROLOGUE, owner.linkPrivate());
        byte[] message2;
        try {
            noise.readMessage(ephemeral);
            message2 = noise.writeMessage(owner.localPayload());
        } catch (HandshakeException e) {
            owner.drop(DropReason.HANDSHAKE);
            return;
        }
        int localIndex = owner.table().take();
        byte[] response = new byte[9 + message2.length];
        response[0] = SecureWire.RESPONSE;
        SecureWire.putInt(response, 1, localIndex);
        SecureWire.putInt(response, 5, senderIndex);
        System.arraycopy(message2, 0, response, 9, message2.length);
        pending.put(localIndex, new Pending(noise, from, senderIndex, localIndex, ephemeral, response, now));
        byInitiator.put(key, localIndex);
        owner.transmit(from, response);
    }

    /** The pending handshake a FINAL completes, taken out; null when there is none for it. */
    Pending take(int index, InetSocketAddress from) {
        Pending p = pending.get(index);
        if (p == null || !p.from().equals(from)) {
            return null;
        }
        forget(index);
        return p;
    }

    void expire(long now) {
        Iterator<Pending> it = pending.values().iterator();
        while (it.hasNext()) {
            Pending p = it.next();
            if (now - p.createdNanos() < timeoutNanos) {
                break; // in arrival order: the rest are younger
            }
            it.remove();
            byInitiator.remove(p.from() + "/" + p.remoteIndex());
            owner.table().giveBack(p.localIndex());
        }
    }

    long nextDeadline() {
        return pending.isEmpty() ? Long.MAX_VALUE : pending.values().iterator().next().createdNanos() + timeoutNanos;
    }

    private void forget(int index) {
        Pending p = pending.remove(index);
        if (p != null) {
            byInitiator.remove(p.from() + "/" + p.remoteIndex());
            owner.table().giveBack(index);
        }
    }
}
