package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A certificate renewed while the node runs, on virtual time with a wall clock that follows it: the
 * renewed node's links stay up past its old certificate's expiry and across rekeys, its peers take the
 * new certificate, and its link state, signed with the new certificate inside, is still taken
 * everywhere. Beside it a node whose certificate is not renewed loses its link at the expiry: what
 * the renewal prevents.
 */
class CertificateRenewalTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;
    private static final long WALL = 1_800_000_000L;
    /** The short certificates' end, in seconds of virtual time after the start. */
    private static final long EXPIRY = 25;
    private static final byte[] AUTHORITY = Crypto.newEd25519Private();
    private static final byte[] OTHER_AUTHORITY = Crypto.newEd25519Private();
    private static final NodeKeys A = NodeKeys.generate();
    private static final NodeKeys B = NodeKeys.generate();
    private static final NodeKeys C = NodeKeys.generate();

    @AfterAll
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    private static NodeKeys keys(String name) {
        return switch (name) {
            case "a" -> A;
            case "b" -> B;
            default -> C;
        };
    }

    private static NodeCertificate certificate(String name, long notAfter, long serial) {
        return NodeCertificate.sign(AUTHORITY, name, keys(name).identityPublic(), WALL - 3600, notAfter, serial);
    }

    /** a, b and c in a chain under one authority; a's and c's certificates end {@link #EXPIRY} s in. */
    private static VirtualOverlay chain(VirtualOverlay[] self) {
        AuthorityAdmission authority = AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY));
        VirtualOverlay o = new VirtualOverlay(11, builder -> {
            builder.routing(builder.build().routing().toBuilder().refreshInterval(Duration.ofSeconds(6))
                    .maxAge(Duration.ofSeconds(18)).build());
            String name = builder.build().name();
            long notAfter = name.equals("b") ? WALL + 86_400 : WALL + EXPIRY;
            builder.module(new SecurityModule(SecurityConfig.of(name, keys(name), certificate(name, notAfter, name.hashCode()),
                    authority).withWallClock(() -> WALL + self[0].now() / S)
                    .withRekey(Duration.ofSeconds(5), Duration.ofSeconds(8), 1L << 32, 1L << 33)));
        });
        self[0] = o;
        for (String n : List.of("a", "b", "c")) {
            o.node(n);
        }
        o.link("a", "b", 5 * MS);
        o.link("b", "c", 5 * MS);
        o.startAll();
        return o;
    }

    @Test
    void aRenewedCertificateKeepsTheLinksUpPastTheOldExpiryAndSignsTheLinkState(@TempDir Path dir) throws Exception {
        VirtualOverlay[] self = new VirtualOverlay[1];
        try (VirtualOverlay o = chain(self)) {
            o.runFor(8 * S);
            NodeStack a = o.engine("a");
            NodeStack b = o.engine("b");
            assertThat(b.router().database().get(NodeId.ofName("a"))).isPresent();
            assertThat(b.router().database().get(NodeId.ofName("c"))).isPresent();

            // The operator puts the renewed certificate in place of the file; the daemon reads it again.
            NodeCertificate renewed = certificate("a", WALL + 86_400, 77);
            Path file = dir.resolve("a.cert");
            Files.write(file, renewed.encode());
            var done = SecuritySetup.authority(dir.resolve("a.key"), "ed25519:unused", file)
                    .reloadCertificate(a.module(SecureLinks.class));
            o.runFor(MS);
            done.join();

            o.runFor((EXPIRY + 20) * S - o.now());
            assertThat(linkDowns(o, "a", "b")).as("a's link never went down").isEmpty();
            assertThat(linkDowns(o, "b", "c")).as("c's certificate expired: its link went down").isNotEmpty();
            long refused = b.counters().drops(DropReason.FORGED_LINK_STATE);
            long seen = b.router().database().get(NodeId.ofName("a")).orElseThrow().sequence();
            o.runFor(13 * S); // two refreshes of a's link state, past a rekey
            LinkStateAdvertisement latest = b.router().database().get(NodeId.ofName("a")).orElseThrow();
            assertThat(latest.sequence()).as("b still takes a's new versions").isGreaterThan(seen);
            assertThat(CertifiedSignature.decode(latest.signature()).orElseThrow().serial()).isEqualTo(77);
            assertThat(b.counters().drops(DropReason.FORGED_LINK_STATE)).isEqualTo(refused);
            assertThat(linkDowns(o, "a", "b")).isEmpty();

            // b holds the new certificate from a's rekey: checked again under b's admission now, past the
            // old one's expiry, a stays admitted, and a revocation of the new serial cuts it off.
            var kept = b.module(SecureLinks.class).updateAdmission(AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY)));
            o.runFor(MS);
            assertThat(kept.join()).isEmpty();
            var cut = b.module(SecureLinks.class).updateAdmission(new AuthorityAdmission(
                    Set.of(Crypto.ed25519Public(AUTHORITY)), Set.of(77L), Set.of()));
            o.runFor(MS);
            assertThat(cut.join()).containsExactly("a");
        }
    }

    @Test
    void aCertificateNotForThisNodeOrNotAdmittedHereIsRefusedAndChangesNothing() {
        VirtualOverlay[] self = new VirtualOverlay[1];
        try (VirtualOverlay o = chain(self)) {
            o.runFor(5 * S);
            SecureLinks links = o.engine("a").module(SecureLinks.class);
            NodeCertificate forB = certificate("b", WALL + 86_400, 5);
            NodeCertificate foreign = NodeCertificate.sign(OTHER_AUTHORITY, "a", A.identityPublic(), WALL - 3600,
                    WALL + 86_400, 6);
            NodeCertificate expired = certificate("a", WALL - 1, 7);
            for (NodeCertificate bad : List.of(forB, foreign, expired)) {
                var f = links.renewCertificate(bad);
                o.runFor(MS);
                assertThatThrownBy(f::join).isInstanceOf(CompletionException.class)
                        .hasCauseInstanceOf(IllegalArgumentException.class);
            }
            // Unrenewed, a's link goes down at its certificate's expiry like c's.
            o.runFor((EXPIRY + 20) * S - o.now());
            assertThat(linkDowns(o, "a", "b")).isNotEmpty();
        }
    }

    private static List<NodeEvent> linkDowns(VirtualOverlay o, String x, String y) {
        return o.events().stream().filter(e -> e.kind() == NodeEvent.Kind.LINK_DOWN)
                .filter(e -> e.node().equals(x) && e.peer().equals(y) || e.node().equals(y) && e.peer().equals(x))
                .toList();
    }
}
