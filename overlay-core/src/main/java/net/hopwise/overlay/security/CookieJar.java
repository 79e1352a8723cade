package net.hopwise.overlay.security;

import java.net.InetSocketAddress;
import java.security.MessageDigest;
import java.util.Arrays;
import javax.crypto.Mac;

/**
 * Stateless proof that a handshake initiator receives at the address it sends from: a MAC, under a
 * secret only this node knows, of the initiator's address, its handshake index and its ephemeral
 * key. A responder answers a first INIT with a cookie and keeps nothing; only an INIT carrying a
 * valid cookie makes it spend a Diffie-Hellman and keep a pending handshake. An attacker spoofing
 * source addresses never sees the cookies, so cannot make the node keep state; one at a real
 * address makes it keep bounded state (see the pending limit). The secret is replaced every
 * lifetime; a cookie of the previous secret is still honoured, so an INIT that raced a rotation
 * does not fail.
 */
final class CookieJar {
    private final long lifetimeNanos;
    private Mac current;
    private Mac previous;
    private long bornNanos;
    private boolean started;

    CookieJar(long lifetimeNanos) {
        this.lifetimeNanos = lifetimeNanos;
    }

    byte[] make(InetSocketAddress from, int senderIndex, byte[] ephemeral, long nowNanos) {
        rotate(nowNanos);
        return mac(current, from, senderIndex, ephemeral);
    }

    boolean valid(InetSocketAddress from, int senderIndex, byte[] ephemeral, byte[] cookie, long nowNanos) {
        rotate(nowNanos);
        return MessageDigest.isEqual(cookie, mac(current, from, senderIndex, ephemeral))
                || (previous != null && MessageDigest.isEqual(cookie, mac(previous, from, senderIndex, ephemeral)));
    }

    private void rotate(long nowNanos) {
        if (!started) {
            current = Crypto.hmac(Crypto.randomBytes(32));
            bornNanos = nowNanos;
            started = true;
            return;
        }
        if (nowNanos - bornNanos >= 2 * lifetimeNanos) {
            previous = null; // idle for two lifetimes: nothing issued under either secret is honoured
            current = Crypto.hmac(Crypto.randomBytes(32));
            bornNanos = nowNanos;
        } else if (nowNanos - bornNanos >= lifetimeNanos) {
            previous = current;
            current = Crypto.hmac(Crypto.randomBytes(32));
            bornNanos = nowNanos;
        }
    }

    private static byte[] mac(Mac mac, InetSocketAddress from, int senderIndex, byte[] ephemeral) {
        byte[] ip = from.getAddress() == null ? new byte[0] : from.getAddress().getAddress();
        mac.update(ip);
        int port = from.getPort();
        mac.update(new byte[] {(byte) (port >>> 8), (byte) port, (byte) (senderIndex >>> 24),
            (byte) (senderIndex >>> 16), (byte) (senderIndex >>> 8), (byte) senderIndex});
        mac.update(ephemeral);
        return Arrays.copyOf(mac.doFinal(), SecureWire.COOKIE_BYTES);
    }
}
