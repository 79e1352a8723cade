package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import net.hopwise.overlay.NodeEvent;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.link.LinkStatus;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * An authority's revocation list told to one node floods with link state: on virtual time, a node
 * that is no neighbour of the revoked node is told, and the revoked node's links go down at every
 * one of its neighbours within the dead interval and one flood; a list its authority did not sign,
 * or not from this overlay's authority, changes nothing anywhere.
 */
class RevocationFloodTest {
    private static final long MS = 1_000_000L;
    private static final long WALL = 1_800_000_000L;
    private static final byte[] AUTHORITY = Crypto.newEd25519Private();
    private static final Map<String, NodeKeys> KEYS = new HashMap<>();

    @AfterAll
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    private static synchronized NodeKeys keys(String name) {
        return KEYS.computeIfAbsent(name, n -> NodeKeys.generate());
    }

    private static long serial(String name) {
        return 1000 + name.charAt(0);
    }

    /** a - b - c, with r linked to b and c; all certified by one authority. */
    private static VirtualOverlay overlay() {
        AuthorityAdmission authority = AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY));
        VirtualOverlay o = new VirtualOverlay(21, builder -> {
            builder.routing(builder.build().routing().toBuilder().refreshInterval(Duration.ofSeconds(6))
                    .maxAge(Duration.ofSeconds(18)).build());
            String n = builder.build().name();
            NodeCertificate c = NodeCertificate.sign(AUTHORITY, n, keys(n).identityPublic(), WALL - 3600, WALL + 3600,
                    serial(n));
            builder.module(new SecurityModule(SecurityConfig.of(n, keys(n), c, authority).withWallClock(() -> WALL)));
        });
        for (String n : List.of("a", "b", "c", "r")) {
            o.node(n);
        }
        o.link("a", "b", 5 * MS);
        o.link("b", "c", 5 * MS);
        o.link("c", "r", 5 * MS);
        o.link("b", "r", 5 * MS);
        o.startAll();
        return o;
    }

    @Test
    void aListToldToOneNodeTakesTheRevokedNodesLinksDownEverywhereWithinTheDeadIntervalAndOneFlood() {
        try (VirtualOverlay o = overlay()) {
            o.runFor(5_000 * MS);
            assertThat(o.engine("a").router().database().get(NodeId.ofName("r"))).isPresent();
            assertThat(downs(o, "r")).isEmpty();

            RevocationList list = RevocationList.sign(AUTHORITY, 1, Set.of(serial("r")), List.of());
            var cut = o.engine("a").module(SecureLinks.class).publishRevocations(list);
            o.runFor(MS);
            assertThat(cut.join()).as("a has no link to r").isEmpty();
            assertThat(downs(o, "r")).isEmpty();

            Duration dead = o.engine("b").config().hello().deadInterval();
            o.runFor(dead.toNanos() + 1_000 * MS); // the dead interval, and a second for the flood
            assertThat(downs(o, "r")).extracting(e -> e.node().equals("r") ? e.peer() : e.node())
                    .as("every neighbour of r took its link down").contains("b", "c");
            // Gone for good: r's handshakes are refused, its link state ages out everywhere.
            o.runFor(20_000 * MS);
            for (String n : List.of("a", "b", "c")) {
                assertThat(o.engine(n).router().database().get(NodeId.ofName("r"))).as(n).isEmpty();
            }
            assertThat(o.engine("b").router().database().get(NodeId.ofName("c"))).isPresent();
        }
    }

    @Test
    void aListOutlivesItsPublisherAndReachesANodeThatRestartsAfterItLeft() {
        try (VirtualOverlay o = overlay()) {
            o.runFor(5_000 * MS);
            RevocationList list = RevocationList.sign(AUTHORITY, 1, Set.of(serial("r")), List.of());
            o.engine("a").module(SecureLinks.class).publishRevocations(list);
            Duration dead = o.engine("b").config().hello().deadInterval();
            o.runFor(dead.toNanos() + 1_000 * MS);
            assertThat(status(o, "b", "r")).isNotEqualTo(LinkStatus.UP);
            // The publisher leaves, and its records age out everywhere (18 s here).
            o.crash("a");
            o.runFor(25_000 * MS);
            assertThat(o.engine("c").router().database().get(NodeId.ofName("a"))).isEmpty();
            // b forgets everything; what it learns from c, which carries the list, cuts r off again.
            o.crash("b");
            o.start("b");
            o.runFor(dead.toNanos() + 5_000 * MS);
            assertThat(status(o, "b", "c")).isEqualTo(LinkStatus.UP);
            assertThat(status(o, "b", "r")).as("b, restarted after the publisher left, refuses r")
                    .isNotEqualTo(LinkStatus.UP);
            assertThat(status(o, "c", "r")).isNotEqualTo(LinkStatus.UP);
        }
    }

    @Test
    void aLaterListThatLeavesARevocationOutWithdrawsItAtRunningNodes() {
        try (VirtualOverlay o = overlay()) {
            o.runFor(5_000 * MS);
            SecureLinks links = o.engine("a").module(SecureLinks.class);
            links.publishRevocations(RevocationList.sign(AUTHORITY, 1, Set.of(serial("r")), List.of()));
            Duration dead = o.engine("b").config().hello().deadInterval();
            o.runFor(dead.toNanos() + 1_000 * MS);
            assertThat(status(o, "b", "r")).isNotEqualTo(LinkStatus.UP);
            assertThat(status(o, "c", "r")).isNotEqualTo(LinkStatus.UP);
            var cut = links.publishRevocations(RevocationList.sign(AUTHORITY, 2, Set.of(), List.of()));
            o.runFor(MS);
            assertThat(cut.join()).isEmpty();
            o.runFor(20_000 * MS);
            assertThat(status(o, "b", "r")).as("r admitted again at b").isEqualTo(LinkStatus.UP);
            assertThat(status(o, "c", "r")).as("r admitted again at c").isEqualTo(LinkStatus.UP);
            // An older list, carried or replayed, does not bring the revocation back.
            var stale = o.engine("c").module(SecureLinks.class)
                    .publishRevocations(RevocationList.sign(AUTHORITY, 1, Set.of(serial("r")), List.of()));
            o.runFor(MS);
            assertThatThrownBy(stale::join).hasCauseInstanceOf(IllegalArgumentException.class);
            o.runFor(dead.toNanos() + 1_000 * MS);
            assertThat(status(o, "b", "r")).isEqualTo(LinkStatus.UP);
        }
    }

    @Test
    void anOperatorsNewAdmissionKeepsTheListsAppliedOnTopOfIt() {
        try (VirtualOverlay o = overlay()) {
            o.runFor(5_000 * MS);
            o.engine("a").module(SecureLinks.class)
                    .publishRevocations(RevocationList.sign(AUTHORITY, 1, Set.of(serial("r")), List.of()));
            Duration dead = o.engine("b").config().hello().deadInterval();
            o.runFor(dead.toNanos() + 1_000 * MS);
            // b's operator reloads its admission (the same authority, nothing revoked in its own file).
            o.engine("b").module(SecureLinks.class).updateAdmission(AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY)));
            o.runFor(20_000 * MS);
            assertThat(status(o, "b", "r")).as("the flooded revocation still holds at b").isNotEqualTo(LinkStatus.UP);
        }
    }

    @Test
    void aListNotSignedByTheOverlaysAuthorityIsRefusedAndChangesNothing() {
        try (VirtualOverlay o = overlay()) {
            o.runFor(5_000 * MS);
            SecureLinks links = o.engine("a").module(SecureLinks.class);
            byte[] stranger = Crypto.newEd25519Private();
            RevocationList foreign = RevocationList.sign(stranger, 1, Set.of(serial("r")), List.of());
            RevocationList good = RevocationList.sign(AUTHORITY, 1, Set.of(serial("r")), List.of());
            // The overlay authority's key on a list it did not sign: a forger's attempt.
            RevocationList forged = new RevocationList(good.authorityKey(), 2, Set.of(serial("b"), serial("c")),
                    List.of(), foreign.signature());
            for (RevocationList bad : List.of(foreign, forged)) {
                var f = links.publishRevocations(bad);
                o.runFor(MS);
                assertThatThrownBy(f::join).isInstanceOf(CompletionException.class)
                        .hasCauseInstanceOf(IllegalArgumentException.class);
            }
            o.runFor(o.engine("b").config().hello().deadInterval().toNanos() + 1_000 * MS);
            assertThat(downs(o, "r")).isEmpty();
            assertThat(downs(o, "b")).isEmpty();
        }
    }

    @Property(tries = 200, seed = "42")
    void anyBytesDecodeToAListOrNothingAndAListRoundTrips(@ForAll @Size(max = 300) byte[] bytes,
            @ForAll Set<Long> serials) {
        RevocationList.decode(bytes).ifPresent(l -> assertThat(l.signatureValid()).isFalse());
        byte[] header = "HWR1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] framed = Crypto.concat(header, bytes);
        RevocationList.decode(framed).ifPresent(l -> assertThat(l.encode()).isEqualTo(framed));
        RevocationList l = RevocationList.sign(AUTHORITY, serials.size(), serials, List.of(keys("r").identityPublic()));
        assertThat(RevocationList.decode(l.encode())).contains(l);
        assertThat(l.signatureValid()).isTrue();
    }

    private static LinkStatus status(VirtualOverlay o, String node, String peer) {
        return o.engine(node).neighbour(NodeId.ofName(peer)).status();
    }

    private static List<NodeEvent> downs(VirtualOverlay o, String node) {
        return o.events().stream().filter(e -> e.kind() == NodeEvent.Kind.LINK_DOWN)
                .filter(e -> e.node().equals(node) || node.equals(e.peer())).toList();
    }
}
