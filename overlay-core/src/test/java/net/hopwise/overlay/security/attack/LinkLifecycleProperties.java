package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredOverlay.MS;
import static net.hopwise.overlay.security.attack.SecuredOverlay.drops;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.link.HelloConfig;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.LinkSecurity;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.session.SessionEndpoint;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;

/** Rekeying, restarts and revocation on virtual time, at moments and rates jqwik picks. */
class LinkLifecycleProperties {
    @AfterContainer
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    private static SecuredOverlay pair(long seed, java.util.function.BiFunction<String, net.hopwise.overlay.security.SecurityConfig,
            net.hopwise.overlay.security.SecurityConfig> tweak) {
        SecuredOverlay sim = new SecuredOverlay(seed, tweak);
        sim.overlay.node("a");
        sim.overlay.node("b");
        sim.overlay.link("a", "b", MS);
        return sim;
    }

    private static LinkSecurity.PeerStatus status(SecuredOverlay sim, String node, String peer) {
        var f = sim.engine(node).module(SecureLinks.class).status();
        sim.overlay.runFor(0);
        return f.join().stream().filter(s -> s.name().equals(peer)).findFirst().orElseThrow();
    }

    /**
     * A reliable session's messages arrive exactly once and in order while the link rekeys every
     * few dozen datagrams and loses some of them, handshakes included.
     */
    @Property(tries = 8, seed = "15")
    void reliableMessagesCrossRekeysUnderLossExactlyOnceInOrder(@ForAll @IntRange(min = 16, max = 64) int rekeyAfterPackets,
            @ForAll @DoubleRange(min = 0, max = 0.1) double loss, @ForAll long seed) {
        try (SecuredOverlay sim = pair(seed, (n, c) -> c.withRekey(c.rekeyAfter(), c.rejectAfter(), rekeyAfterPackets, 1L << 20))) {
            sim.overlay.loss("a", "b", loss);
            sim.overlay.loss("b", "a", loss);
            sim.overlay.startAll();
            assertThat(sim.awaitRoute("a", "b", 10_000) && sim.awaitRoute("b", "a", 10_000)).isTrue();
            NodeStack a = sim.engine("a");
            NodeStack b = sim.engine("b");
            List<String> got = new ArrayList<>();
            b.openSession(9, NodeId.ofName("a"), 9, RoutingMetric.HOPS,
                    m -> got.add(m.payload().toString(StandardCharsets.US_ASCII)), null, sim.overlay.now());
            SessionEndpoint session = a.openSession(9, NodeId.ofName("b"), 9, RoutingMetric.HOPS, m -> { }, null,
                    sim.overlay.now());
            long rekeys = status(sim, "a", "b").rekeys() + status(sim, "b", "a").rekeys();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                String text = "m" + i + "-".repeat(i % 200);
                ByteBuf payload = Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.US_ASCII));
                try {
                    for (int wait = 0; a.sessionSend(session, payload, sim.overlay.now()) != SendResult.ACCEPTED; wait++) {
                        assertThat(wait).as("the session takes messages again").isLessThan(10_000);
                        sim.overlay.runFor(MS);
                    }
                } finally {
                    payload.release();
                }
                sent.add(text);
                sim.overlay.runFor(20 * MS); // three seconds of traffic: room for a lost handshake datagram's retry
            }
            for (int ms = 0; ms < 60_000 && got.size() < sent.size(); ms += 10) {
                sim.overlay.runFor(10 * MS);
            }
            assertThat(got).containsExactlyElementsOf(sent);
            long rekeyed = status(sim, "a", "b").rekeys() + status(sim, "b", "a").rekeys() - rekeys;
            assertThat(rekeyed).as("rekeyed while the messages crossed").isPositive();
            assertThat(drops(a, DropReason.FORGED) + drops(b, DropReason.FORGED)).isZero();
        }
    }

    /**
     * Either end restarted at any moment (before the first handshake or long after): the link comes
     * back through a new handshake, and every sealed datagram of the old sessions, handed to the
     * restarted node, is a counted drop.
     */
    @Property(tries = 12, seed = "15")
    void aRestartOfEitherEndAtAnyMomentLinksAgainAndAcceptsNothingOfTheOldSessions(@ForAll boolean restartA,
            @ForAll @IntRange(min = 0, max = 3_000) int atMs, @ForAll long seed) {
        try (SecuredOverlay sim = pair(seed, (n, c) -> c)) {
            sim.overlay.startAll();
            sim.overlay.runFor(atMs * MS);
            String restarted = restartA ? "a" : "b";
            String survivor = restartA ? "b" : "a";
            List<byte[]> old = sim.sealed(survivor, restarted);
            sim.overlay.crash(restarted);
            sim.overlay.start(restarted);
            assertThat(sim.awaitRoute("a", "b", 10_000) && sim.awaitRoute("b", "a", 10_000)).as("linked again").isTrue();
            assertThat(status(sim, survivor, restarted).authenticated()).isTrue();
            NodeStack fresh = sim.engine(restarted);
            long before = drops(fresh, DropReason.UNKNOWN_SESSION);
            for (byte[] d : old) {
                sim.inject(survivor, restarted, d);
            }
            sim.overlay.runFor(10 * MS);
            assertThat(drops(fresh, DropReason.UNKNOWN_SESSION) - before).isEqualTo(old.size());
            assertThat(drops(fresh, DropReason.REPLAY) + drops(fresh, DropReason.FORGED)).isZero();
        }
    }

    /**
     * A key revoked at any moment while the link is up: the link is down at the revoking node within
     * the dead interval (one hello interval of slack for the timer's step), the other end follows,
     * and neither its running engine nor a fresh one gets a handshake through.
     */
    @Property(tries = 6, seed = "15")
    void aKeyRevokedWhileTheLinkIsUpTakesItDownWithinTheDeadIntervalForGood(@ForAll boolean revokedAtB,
            @ForAll @IntRange(min = 0, max = 2_000) int upForMs, @ForAll long seed) {
        try (SecuredOverlay sim = pair(seed, (n, c) -> c)) {
            sim.overlay.startAll();
            assertThat(sim.awaitRoute("a", "b", 10_000) && sim.awaitRoute("b", "a", 10_000)).isTrue();
            sim.overlay.runFor(upForMs * MS);
            String revoker = revokedAtB ? "b" : "a";
            String revoked = revokedAtB ? "a" : "b";
            NodeStack r = sim.engine(revoker);
            var cut = r.module(SecureLinks.class).updateAdmission(new TrustedKeys(Map.of(revoker,
                    List.of(SecuredOverlay.keys(revoker).identityPublic()))));
            sim.overlay.runFor(0);
            assertThat(cut.join()).containsExactly(revoked);
            long revokedAt = sim.overlay.now();
            HelloConfig hello = HelloConfig.defaults();
            long limit = revokedAt + hello.deadInterval().toNanos() + hello.interval().toNanos();
            while (r.neighbour(NodeId.ofName(revoked)).status() == LinkStatus.UP && sim.overlay.now() <= limit) {
                sim.overlay.runFor(MS);
            }
            assertThat(r.neighbour(NodeId.ofName(revoked)).status()).as("down within the dead interval").isEqualTo(LinkStatus.DOWN);
            assertThat(r.hasRoute(NodeId.ofName(revoked), RoutingMetric.HOPS)).isFalse();

            long rejections = status(sim, revoker, revoked).rejections();
            sim.overlay.runFor(1_500 * MS);
            sim.overlay.crash(revoked);
            sim.overlay.start(revoked); // a fresh engine starts a handshake at once
            sim.overlay.runFor(1_500 * MS);
            assertThat(status(sim, revoker, revoked).rejections()).as("its handshakes refused").isGreaterThan(rejections);
            assertThat(status(sim, revoker, revoked).authenticated()).isFalse();
            assertThat(r.neighbour(NodeId.ofName(revoked)).status()).isNotEqualTo(LinkStatus.UP);
            assertThat(sim.engine(revoked).hasRoute(NodeId.ofName(revoker), RoutingMetric.HOPS)).isFalse();
        }
    }
}
