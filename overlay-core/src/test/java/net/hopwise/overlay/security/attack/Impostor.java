package net.hopwise.overlay.security.attack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.LinkSecurity;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.TrustedKeys;

/**
 * An attacker that speaks the link protocol itself: the product's own engine, run with keys the
 * victim does not admit, under a name of the attacker's choosing (its own, or a neighbour's). It
 * trusts the victim, so that its side of a handshake goes as far as the protocol lets it; whatever
 * it completes at its end, the victim decides. Its clock is the one handed to each call.
 */
final class Impostor {
    /** How the impostor's datagrams reach the victim (its own socket, or from a neighbour's address). */
    @FunctionalInterface
    interface Wire {
        void send(byte[] datagram) throws IOException;
    }

    private final LinkSecurity engine;
    private final String victim;
    final AtomicInteger established = new AtomicInteger();
    final AtomicInteger refusedAtImpostor = new AtomicInteger();

    Impostor(String claimedName, String victim, byte[] victimIdentity, InetSocketAddress victimAddress, Wire wire) {
        this.victim = victim;
        NodeKeys own = NodeKeys.generate();
        SecurityConfig config = SecurityConfig.of(claimedName, own, null,
                new TrustedKeys(Map.of(victim, List.of(victimIdentity))));
        this.engine = new LinkSecurity(config, (to, d) -> {
            try {
                wire.send(d);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, r -> {
            if (r == DropReason.REJECTED) {
                refusedAtImpostor.incrementAndGet();
            }
        }, new LinkSecurity.Listener() {
            @Override
            public void established(String peer, InetSocketAddress address, boolean rekey) {
                established.incrementAndGet();
            }
        });
        engine.addPeer(victim, victimAddress);
    }

    /** Starts a handshake (the engine's first seal does), or seals and sends when it has keys. */
    synchronized boolean send(byte[] plaintext, long nowNanos, Wire wire) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(plaintext.length + LinkSecurity.overhead());
        if (!engine.seal(victim, ByteBuffer.wrap(plaintext), out, nowNanos)) {
            return false;
        }
        wire.send(java.util.Arrays.copyOf(out.array(), out.position()));
        return true;
    }

    /** A datagram from the victim. */
    synchronized void receive(InetSocketAddress from, byte[] datagram, long nowNanos) {
        engine.receive(from, ByteBuffer.wrap(datagram), ByteBuffer.allocate(datagram.length), nowNanos);
    }

    synchronized void tick(long nowNanos) {
        if (engine.nextDeadlineNanos() <= nowNanos) {
            engine.onTimer(nowNanos);
        }
    }
}
