package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.OutsiderOnLoopbackTest.loopback;
import static net.hopwise.overlay.security.attack.SecuredPair.drops;
import static net.hopwise.overlay.security.attack.SecuredPair.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * Tens of thousands of handshake attempts against a real secured node while its link to a neighbour
 * is up: from many source ports of an outsider (which never gets a cookie), and from the
 * neighbour's own address by an attacker on the path (which does).
 */
class HandshakeFloodOnLoopbackTest {
    private static final int SOCKETS = 100;
    private static final int PER_SOCKET = 200;
    /** Sent before waiting for the node to count them: well within its socket's receive buffer. */
    private static final int BATCH = 500;
    private static final int COOKIE_BATCH = 100;

    @Test
    void twentyThousandInitsFromAHundredPortsCostNoHandshakeStateAndEachIsACountedDrop() throws Exception {
        try (SecuredPair p = SecuredPair.start()) {
            InetSocketAddress b = loopback(p.b);
            long handshakes = status(p.b, "a").handshakes();
            long badCookies = drops(p.b, DropReason.BAD_COOKIE);
            long costly = drops(p.b, DropReason.HANDSHAKE_RATE) + drops(p.b, DropReason.PENDING_LIMIT);
            List<DatagramChannel> sockets = open(SOCKETS);
            try {
                Random random = new Random(20_000);
                int sent = 0;
                for (int round = 0; round < PER_SOCKET; round++) {
                    for (DatagramChannel s : sockets) {
                        s.send(ByteBuffer.wrap(Forgeries.init(random, true)), b);
                        sent++;
                        if (sent % BATCH == 0) {
                            int now = sent;
                            Eventually.await(now + " INITs counted", () -> drops(p.b, DropReason.BAD_COOKIE) - badCookies >= now);
                        }
                    }
                }
                assertThat(drops(p.b, DropReason.BAD_COOKIE) - badCookies).isEqualTo(SOCKETS * PER_SOCKET);
                // No cookie, so no Diffie-Hellman and no pending handshake: nothing was ever over budget.
                assertThat(drops(p.b, DropReason.HANDSHAKE_RATE) + drops(p.b, DropReason.PENDING_LIMIT)).isEqualTo(costly);
                // A refused cookie gets a fresh one back, and nothing else: 21 bytes for a 53-byte INIT, so a
                // flood from forged addresses is not amplified, and no handshake state is kept for it.
                int replies = 0;
                ByteBuffer in = ByteBuffer.allocate(2048);
                for (DatagramChannel s : sockets) {
                    in.clear();
                    while (s.receive(in) != null) {
                        in.flip();
                        assertThat(in.remaining()).as("a COOKIE").isEqualTo(21);
                        assertThat(in.get(0)).isEqualTo((byte) 0xA2);
                        replies++;
                        in.clear();
                    }
                }
                assertThat(replies).isLessThanOrEqualTo(SOCKETS * PER_SOCKET);
            } finally {
                for (DatagramChannel s : sockets) {
                    s.close();
                }
            }
            assertThat(status(p.b, "a").authenticated()).isTrue();
            assertThat(status(p.b, "a").handshakes()).isEqualTo(handshakes);
            p.deliverFromA("the link stayed up");
        }
    }

    /**
     * An attacker on the path gets the cookies b sends to a's address and presents them: each such
     * INIT costs b a Diffie-Hellman and a pending handshake, but only as many as the per-address
     * budget allows, and pending state stays under its limit.
     */
    @Test
    void initsWithValidCookiesFromTheNeighboursAddressAreHeldToTheBudgetAndThePendingLimit() throws Exception {
        int perAddress = 5;
        int maxPending = 8;
        try (SecuredPair p = SecuredPair.start(c -> c.withHandshakeBudget(perAddress, 1000).withMaxPendingHandshakes(maxPending), true)) {
            long handshakes = status(p.b, "a").handshakes();
            Map<Integer, byte[]> inits = new ConcurrentHashMap<>();
            AtomicInteger withCookie = new AtomicInteger();
            AtomicInteger responses = new AtomicInteger();
            p.tap.listen(c -> {
                if (c.towardsB()) {
                    return;
                }
                try {
                    if (c.type() == Forgeries.COOKIE && inits.containsKey(Forgeries.receiverIndex(c.bytes()))) {
                        p.tap.sendToB(Forgeries.withCookie(inits.get(Forgeries.receiverIndex(c.bytes())), c.bytes()));
                        withCookie.incrementAndGet();
                    } else if (c.type() == Forgeries.RESPONSE && inits.containsKey(Forgeries.getInt(c.bytes(), 5))) {
                        responses.incrementAndGet();
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            long rate = drops(p.b, DropReason.HANDSHAKE_RATE);
            long pendingLimit = drops(p.b, DropReason.PENDING_LIMIT);
            Random random = new Random(5);
            int count = 2_000;
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                byte[] init = Forgeries.init(random, false);
                inits.put(Forgeries.getInt(init, 1), init);
                p.tap.sendToB(init);
                // Smaller rounds than the first test's: each INIT here brings a cookie back to the relay's
                // socket, and 500 of them at once overflowed its receive buffer on a loaded machine.
                if ((i + 1) % COOKIE_BATCH == 0) {
                    int upTo = i + 1;
                    Eventually.await("the INITs with cookies answered or refused", () -> withCookie.get() >= upTo
                            && responses.get() + drops(p.b, DropReason.HANDSHAKE_RATE) - rate >= upTo);
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("on-path INIT flood: %d INITs with valid cookies in %.2f s: %d answered (Diffie-Hellman),"
                    + " %d over budget, %d pending handshakes gave way%n", count, seconds, responses.get(),
                    drops(p.b, DropReason.HANDSHAKE_RATE) - rate, drops(p.b, DropReason.PENDING_LIMIT) - pendingLimit);
            // Every INIT with a valid cookie cost a Diffie-Hellman (a RESPONSE) or was refused by the budget.
            assertThat(responses.get() + drops(p.b, DropReason.HANDSHAKE_RATE) - rate).isEqualTo(count);
            assertThat(withCookie.get()).isEqualTo(count);
            // The bucket starts full and refills at perAddress a second: elapsed time only widens this bound.
            assertThat(responses.get()).isPositive().isLessThanOrEqualTo((int) (perAddress * (1 + Math.ceil(seconds))));
            assertThat(drops(p.b, DropReason.PENDING_LIMIT) - pendingLimit)
                    .as("pending handshakes over the limit gave way").isGreaterThanOrEqualTo(Math.max(0, responses.get() - maxPending));
            assertThat(status(p.b, "a").authenticated()).isTrue();
            assertThat(status(p.b, "a").handshakes()).isEqualTo(handshakes);
            p.deliverFromA("the link stayed up");
        }
    }

    /**
     * A first INIT (no cookie) from an address that is no neighbour's gets a cookie, so that a
     * neighbour that moved can complete its handshake, and nothing else: no drop to count, no state,
     * every reply counted as a cookie reply.
     */
    @Test
    void initsWithoutACookieFromAddressesThatAreNoNeighboursGetACookieAndNothingElse() throws Exception {
        try (SecuredPair p = SecuredPair.start()) {
            InetSocketAddress b = loopback(p.b);
            net.hopwise.overlay.security.SecureLinks links = p.b.module(net.hopwise.overlay.security.SecureLinks.class);
            long cookies = links.cookieReplies();
            long before = SecuredPair.allDrops(p.b);
            long malformed = drops(p.b, DropReason.MALFORMED);
            List<DatagramChannel> sockets = open(10);
            try {
                Random random = new Random(1000);
                for (int i = 0; i < 1000; i++) {
                    sockets.get(i % 10).send(ByteBuffer.wrap(Forgeries.init(random, false)), b);
                }
                // A datagram after them that is surely counted, so that the node has read them all.
                sockets.get(0).send(ByteBuffer.wrap(new byte[] {0}), b);
                Eventually.await("the closing datagram counted", () -> drops(p.b, DropReason.MALFORMED) > malformed);
                assertThat(links.cookieReplies() - cookies).isEqualTo(1000);
                assertThat(SecuredPair.allDrops(p.b) - before).as("only the closing datagram").isEqualTo(1);
            } finally {
                for (DatagramChannel s : sockets) {
                    s.close();
                }
            }
            assertThat(status(p.b, "a").authenticated()).isTrue();
        }
    }

    private static List<DatagramChannel> open(int n) throws java.io.IOException {
        List<DatagramChannel> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            DatagramChannel s = DatagramChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
            s.configureBlocking(false);
            out.add(s);
        }
        return out;
    }
}
