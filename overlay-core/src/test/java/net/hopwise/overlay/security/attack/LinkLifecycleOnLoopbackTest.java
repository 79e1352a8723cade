package net.hopwise.overlay.security.attack;

import static net.hopwise.overlay.security.attack.SecuredPair.drops;
import static net.hopwise.overlay.security.attack.SecuredPair.status;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.ReliableSession;
import net.hopwise.overlay.SendResult;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.DropReason;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.testing.Eventually;
import org.junit.jupiter.api.Test;

/**
 * A sealed link between two real nodes through its life: rekeyed under load, either end restarted,
 * the peer's key revoked while the link is up. The attacker on the path keeps everything and
 * replays the old sessions' datagrams afterwards.
 */
class LinkLifecycleOnLoopbackTest {
    @Test
    void reliableMessagesCrossManyRekeysExactlyOnceAndInOrder() throws Exception {
        try (SecuredPair p = SecuredPair.start(c -> c.withRekey(c.rekeyAfter(), c.rejectAfter(), 8, 1L << 20), true)) {
            List<String> got = new CopyOnWriteArrayList<>();
            p.b.acceptSessions(SecuredPair.PORT, s -> m -> got.add(m.payload().toString(StandardCharsets.US_ASCII)));
            ReliableSession session = p.a.openPort(1, m -> { }).openReliable("b", SecuredPair.PORT, m -> { });
            long rekeys = status(p.a, "b").rekeys() + status(p.b, "a").rekeys();
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String text = "reliable-" + i + "-".repeat(i % 300);
                while (session.send(text.getBytes(StandardCharsets.US_ASCII)) != SendResult.ACCEPTED) {
                    Eventually.await("room in the session", session::isWritable);
                }
                sent.add(text);
            }
            Eventually.await("400 messages delivered", () -> got.size() >= sent.size());
            assertThat(got).containsExactlyElementsOf(sent);
            long rekeyed = status(p.a, "b").rekeys() + status(p.b, "a").rekeys() - rekeys;
            System.out.println("rekeys while 400 reliable messages crossed: " + rekeyed);
            // How many datagrams 400 messages take depends on batching and timing; a rekey every 8 gives several.
            assertThat(rekeyed).as("rekeyed under load").isGreaterThanOrEqualTo(3);
            assertThat(drops(p.b, DropReason.FORGED) + drops(p.a, DropReason.FORGED)).isZero();
            assertThat(drops(p.b, DropReason.REJECTED) + drops(p.a, DropReason.REJECTED)).isZero();
        }
    }

    @Test
    void aRestartedInitiatorLinksAgainWithANewHandshakeAndNothingOfTheOldSessionIsAccepted() throws Exception {
        try (SecuredPair p = SecuredPair.start()) {
            p.deliverFromA("before");
            restartAndReplay(p, true);
        }
    }

    @Test
    void aRestartedResponderLinksAgainWithANewHandshakeAndNothingOfTheOldSessionIsAccepted() throws Exception {
        try (SecuredPair p = SecuredPair.start()) {
            p.deliverFromA("before");
            restartAndReplay(p, false);
        }
    }

    private static void restartAndReplay(SecuredPair p, boolean restartA) throws Exception {
        List<Wiretap.Captured> old = p.tap.snapshot();
        OverlayNode survivor = restartA ? p.b : p.a;
        String restarted = restartA ? "a" : "b";
        long handshakes = status(survivor, restarted).handshakes();
        if (restartA) {
            p.restartA();
        } else {
            p.restartB();
        }
        p.awaitLinked();
        Eventually.await("a new handshake at the survivor", () -> status(survivor, restarted).handshakes() > handshakes);
        p.deliverFromA("after");
        OverlayNode fresh = restartA ? p.a : p.b;
        // Every sealed datagram of the old sessions, both ways, to both nodes.
        long before = oldSessionDrops(p.a) + oldSessionDrops(p.b);
        int sent = 0;
        for (Wiretap.Captured c : old) {
            if (c.type() == Forgeries.DATA) {
                if (c.towardsB()) {
                    p.tap.sendToB(c.bytes());
                } else {
                    p.tap.sendToA(c.bytes());
                }
                sent++;
            }
        }
        int expected = sent;
        Eventually.await("every old datagram dropped", () -> oldSessionDrops(p.a) + oldSessionDrops(p.b) - before >= expected);
        assertThat(oldSessionDrops(p.a) + oldSessionDrops(p.b) - before).isEqualTo(sent);
        assertThat(drops(fresh, DropReason.REPLAY)).as("the fresh node knows no old session").isZero();
        assertThat(p.deliveredAtB).containsExactly("before", "after");
        assertThat(status(p.a, "b").authenticated()).isTrue();
        assertThat(status(p.b, "a").authenticated()).isTrue();
    }

    private static long oldSessionDrops(OverlayNode n) {
        return drops(n, DropReason.REPLAY) + drops(n, DropReason.UNKNOWN_SESSION) + drops(n, DropReason.EXPIRED);
    }

    @Test
    void aKeyRevokedWhileTheLinkIsUpCutsItOffAndTheRevokedNodeCannotHandshakeAgain() throws Exception {
        try (SecuredPair p = SecuredPair.start()) {
            p.deliverFromA("before");
            List<String> cut = p.b.module(SecureLinks.class)
                    .updateAdmission(new TrustedKeys(Map.of("b", List.of(p.kb.identityPublic()))))
                    .get(10, TimeUnit.SECONDS);
            assertThat(cut).containsExactly("a");
            assertThat(status(p.b, "a").authenticated()).isFalse();
            long unknown = drops(p.b, DropReason.UNKNOWN_SESSION);
            // a still has its end of the session: what it seals is not opened any more.
            p.a.openPort(50, m -> { }).send("b", SecuredPair.PORT, "after".getBytes(StandardCharsets.US_ASCII));
            Eventually.await("a's datagrams refused", () -> drops(p.b, DropReason.UNKNOWN_SESSION) > unknown);
            Eventually.await("the link down at b", () -> p.b.path("a", RoutingMetric.HOPS).isEmpty()
                    && linkStatus(p.b, "a") == LinkStatus.DOWN);
            assertThat(p.eventsAtB).anyMatch(e -> e.kind() == NodeEvent.Kind.LINK_DOWN);

            // A fresh a starts a handshake at once: refused, as every one b tries itself.
            long rejections = status(p.b, "a").rejections();
            p.restartA();
            Eventually.await("a's next handshake refused", () -> status(p.b, "a").rejections() > rejections);
            assertThat(status(p.b, "a").authenticated()).isFalse();
            assertThat(linkStatus(p.b, "a")).isNotEqualTo(LinkStatus.UP);
            assertThat(p.b.path("a", RoutingMetric.HOPS)).isEmpty();
            assertThat(p.deliveredAtB).containsExactly("before");
        }
    }

    private static LinkStatus linkStatus(OverlayNode node, String peer) {
        return node.neighbours().stream().filter(n -> n.name().equals(peer)).findFirst().orElseThrow().status();
    }
}
