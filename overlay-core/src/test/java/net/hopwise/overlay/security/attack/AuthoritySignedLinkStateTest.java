package net.hopwise.overlay.security.attack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.node.NodeStack;
import net.hopwise.overlay.routing.ExtensionCodec;
import net.hopwise.overlay.routing.ExtensionRecord;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.RoutingMetric;
import net.hopwise.overlay.security.Admission;
import net.hopwise.overlay.security.AuthorityAdmission;
import net.hopwise.overlay.security.Crypto;
import net.hopwise.overlay.security.LinkStateSigner;
import net.hopwise.overlay.security.NodeCertificate;
import net.hopwise.overlay.security.NodeKeys;
import net.hopwise.overlay.security.SecureLinks;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecurityModule;
import net.hopwise.overlay.security.TrustedKeys;
import net.hopwise.overlay.spi.LinkStateExtension;
import net.hopwise.overlay.spi.ModuleContext;
import net.hopwise.overlay.spi.OverlayModule;
import net.hopwise.overlay.testing.VirtualOverlay;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Signed link state where nodes are admitted by an authority's certificates (no node knows another's
 * key beforehand), and revocation reaching link state: production nodes with the security module on
 * virtual time. m is admitted and linked to a only; what it forges for c (a's two hops away) travels
 * sealed over its own link, as any of its frames.
 */
class AuthoritySignedLinkStateTest {
    private static final long MS = 1_000_000L;
    private static final long WALL = 1_800_000_000L;
    /** A module's link-state record kind, standing for a membership or a registration. */
    static final int KIND = 4242;
    private static final byte[] AUTHORITY = Crypto.newEd25519Private();
    private static final Map<String, NodeKeys> KEYS = new HashMap<>();
    private static final Map<String, NodeCertificate> CERTS = new HashMap<>();

    @AfterAll
    static void noLeaks() {
        net.hopwise.overlay.testing.LeakDetection.assertNoLeaks();
    }

    static synchronized NodeKeys keys(String name) {
        return KEYS.computeIfAbsent(name, n -> NodeKeys.generate());
    }

    static synchronized NodeCertificate certificate(String name) {
        return CERTS.computeIfAbsent(name, n -> NodeCertificate.sign(AUTHORITY, n, keys(n).identityPublic(),
                WALL - 3600, WALL + 3600, n.hashCode()));
    }

    static AuthorityAdmission authority() {
        return AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY));
    }

    static SecurityConfig authorityConfig(String name) {
        return SecurityConfig.of(name, keys(name), certificate(name), authority()).withWallClock(() -> WALL);
    }

    /** Publishes a record of {@link #KIND} naming the node: what a module floods about itself. */
    static final class Member implements OverlayModule {
        private final String name;

        Member(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return "member";
        }

        @Override
        public void install(ModuleContext ctx) {
            LinkStateExtension e = ctx.linkStateExtension(KIND, (origin, record) -> { });
            ctx.addListener(event -> {
                if (event.kind() == net.hopwise.overlay.NodeEvent.Kind.LINK_UP) {
                    e.publish(("member " + name).getBytes(StandardCharsets.US_ASCII));
                }
            });
        }
    }

    private static VirtualOverlay overlay(java.util.function.Function<String, SecurityConfig> configs,
            AdmittedForgerOnLoopbackTest.Forger forger) {
        return new VirtualOverlay(5, builder -> {
            // Refreshes every 6 s and ageing after 18 s, so that a refresh and an ageing take little virtual time.
            builder.routing(builder.build().routing().toBuilder().refreshInterval(java.time.Duration.ofSeconds(6))
                    .maxAge(java.time.Duration.ofSeconds(18)).build());
            String name = builder.build().name();
            builder.module(new SecurityModule(configs.apply(name)));
            builder.module(new Member(name));
            if (name.equals("m")) {
                builder.module(forger.module()); // above link security: what it puts out leaves sealed
            }
        });
    }

    @Test
    void underAnAuthorityAnAdmittedNodeCannotForgeAnotherNodesAdvertisementOrRecord() {
        AdmittedForgerOnLoopbackTest.Forger forger = new AdmittedForgerOnLoopbackTest.Forger("a");
        try (VirtualOverlay o = overlay(AuthoritySignedLinkStateTest::authorityConfig, forger)) {
            for (String n : List.of("a", "b", "c", "m")) {
                o.node(n);
            }
            o.link("a", "b", 5 * MS);
            o.link("b", "c", 5 * MS);
            o.link("m", "a", 5 * MS);
            o.startAll();
            o.runFor(5_000 * MS);
            NodeStack a = o.engine("a");
            NodeStack b = o.engine("b");
            NodeId c = NodeId.ofName("c");
            NodeId m = NodeId.ofName("m");
            assertThat(o.engine("m").router().nextHop(c, RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("a"));
            LinkStateAdvertisement real = a.router().database().get(c).orElseThrow();
            assertThat(real.signature()).as("c's certificate travels with its signature")
                    .hasSize(LinkStateSigner.CERTIFIED_SIGNATURE_BYTES);
            assertThat(new String(a.router().extensions(KIND).get(c), StandardCharsets.US_ASCII)).isEqualTo("member c");
            assertThat(a.router().signaturesVerified()).isPositive();
            assertThat(a.router().signaturesFailed()).isZero();

            LinkStateSigner mSigns = LinkStateSigner.of(authorityConfig("m"), 4);
            LinkStateAdvertisement claim = new LinkStateAdvertisement(c, "c", real.sequence() + 1, 0,
                    List.of(new LinkStateAdvertisement.Link(m, new LinkCost(1, 0))));
            byte[] content = LinkStateCodec.signedContent(claim);
            byte[] mOwn = mSigns.sign(0, content);
            // m's own certificate and key; c's real certificate around m's signature; a certificate for c
            // with m's key from an authority nobody trusts; c's signature of another version.
            NodeCertificate rogue = NodeCertificate.sign(Crypto.newEd25519Private(), "c", keys("m").identityPublic(),
                    WALL - 1, WALL + 1, 9);
            List<byte[]> signatures = List.of(mOwn, withCertificate(mOwn, certificate("c")), withCertificate(mOwn, rogue),
                    real.signature());
            long refused = a.counters().drops(DropReason.FORGED_LINK_STATE);
            for (byte[] s : signatures) {
                send(o, forger, Forgeries.linkStateUpdate("m", "a", claim.withSignature(s)));
            }
            assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).isEqualTo(signatures.size());

            // c's record, claimed by m
            // (a minute ahead of c's advertisement: newer than c's record, within the window tied to the clock)
            ExtensionRecord forgedRecord = new ExtensionRecord(c, KIND, real.sequence() + 60_000, 0,
                    "member m".getBytes(StandardCharsets.US_ASCII));
            byte[] recordSignature = mSigns.sign(0, ExtensionCodec.signedContent(forgedRecord));
            send(o, forger, Forgeries.extensionUpdate("m", "a", forgedRecord.withSignature(recordSignature)));
            send(o, forger, Forgeries.extensionUpdate("m", "a",
                    forgedRecord.withSignature(withCertificate(recordSignature, certificate("c")))));
            assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).isEqualTo(signatures.size() + 2);

            // The same path carries what m may say of itself, signed as m.
            LinkStateAdvertisement own = new LinkStateAdvertisement(m, "m", real.sequence() + 10_000_000L, 0,
                    List.of(new LinkStateAdvertisement.Link(NodeId.ofName("a"), new LinkCost(1, 0))));
            send(o, forger, Forgeries.linkStateUpdate("m", "a",
                    own.withSignature(mSigns.sign(0, LinkStateCodec.signedContent(own)))));
            o.runFor(200 * MS);
            assertThat(b.router().database().get(m).orElseThrow().sequence()).as("m's own, flooded to b")
                    .isEqualTo(own.sequence());

            for (NodeStack n : List.of(a, b)) {
                assertThat(n.router().database().get(c).orElseThrow().links())
                        .extracting(LinkStateAdvertisement.Link::neighbour).containsExactly(NodeId.ofName("b"));
                assertThat(new String(n.router().extensions(KIND).get(c), StandardCharsets.US_ASCII)).isEqualTo("member c");
            }
            assertThat(b.counters().drops(DropReason.FORGED_LINK_STATE)).as("a relayed none of them").isZero();
            assertThat(a.router().nextHop(c, RoutingMetric.HOPS)).isEqualTo(NodeId.ofName("b"));
            var stats = a.module(SecureLinks.class).linkStateVerification();
            o.runFor(MS);
            LinkStateSigner.Stats s = stats.join().orElseThrow();
            assertThat(s.refused()).isEqualTo(signatures.size() + 2);
            assertThat(s.certificateVerifications()).as("each certificate's signature verified once")
                    .isLessThanOrEqualTo(5);
        }
    }

    /**
     * A node revokes r; r's next advertisement reaches it through b, which has not revoked r yet:
     * refused, and what the node held of r ages out.
     */
    @Test
    void aRevokedNodesNewAdvertisementRelayedByAThirdNodeIsRefusedAndItsOldOneAgesOut() {
        TrustedKeys all = trusted("a", "b", "r");
        revocationIsHeededByLinkState(n -> SecurityConfig.of(n, keys(n), null, all).withWallClock(() -> WALL),
                trusted("a", "b"));
    }

    @Test
    void aRevokedCertificatesNewAdvertisementRelayedByAThirdNodeIsRefusedAndItsOldOneAgesOut() {
        revocationIsHeededByLinkState(AuthoritySignedLinkStateTest::authorityConfig,
                new AuthorityAdmission(Set.of(Crypto.ed25519Public(AUTHORITY)), Set.of(certificate("r").serial()),
                        Set.of()));
    }

    private static void revocationIsHeededByLinkState(java.util.function.Function<String, SecurityConfig> configs,
            Admission revoking) {
        AdmittedForgerOnLoopbackTest.Forger unused = new AdmittedForgerOnLoopbackTest.Forger("nobody");
        try (VirtualOverlay o = overlay(configs, unused)) {
            for (String n : List.of("a", "b", "r")) {
                o.node(n);
            }
            o.link("a", "b", 5 * MS);
            o.link("b", "r", 5 * MS);
            o.startAll();
            o.runFor(5_000 * MS);
            NodeStack a = o.engine("a");
            NodeId r = NodeId.ofName("r");
            long held = a.router().database().get(r).orElseThrow().sequence();
            var cut = a.module(SecureLinks.class).updateAdmission(revoking);
            o.runFor(MS);
            assertThat(cut.join()).as("a has no link to r").isEmpty();
            long refused = a.counters().drops(DropReason.FORGED_LINK_STATE);

            // r's refresh (every 6 s) reaches a through b only
            o.runFor(7_000 * MS);
            assertThat(o.engine("b").router().database().get(r).orElseThrow().sequence()).isGreaterThan(held);
            assertThat(a.router().database().get(r).map(LinkStateAdvertisement::sequence)).contains(held);
            assertThat(a.counters().drops(DropReason.FORGED_LINK_STATE) - refused).isPositive();
            assertThat(a.router().extensions(KIND)).containsKey(NodeId.ofName("b"));

            o.runFor(12_000 * MS); // past maxAge (18 s) since r's last version a took
            assertThat(a.router().database().get(r)).isEmpty();
            assertThat(a.router().extensions(KIND)).doesNotContainKey(r);
            assertThat(a.router().nextHop(r, RoutingMetric.HOPS)).isNull();
            assertThat(a.router().database().get(NodeId.ofName("b"))).as("b, still admitted, refreshes").isPresent();
            assertThat(o.engine("b").router().database().get(r)).as("b has not revoked r").isPresent();
        }
    }

    private static TrustedKeys trusted(String... names) {
        Map<String, List<byte[]>> m = new HashMap<>();
        for (String n : names) {
            m.put(n, List.of(keys(n).identityPublic()));
        }
        return new TrustedKeys(m);
    }

    /** The certified field {@code field} with {@code certificate} in place of the one it carries. */
    private static byte[] withCertificate(byte[] field, NodeCertificate certificate) {
        byte[] out = field.clone();
        byte[] c = java.nio.ByteBuffer.allocate(152).put(certificate.identityKey()).putLong(certificate.notBefore())
                .putLong(certificate.notAfter()).putLong(certificate.serial()).put(certificate.authorityKey())
                .put(certificate.signature()).array();
        System.arraycopy(c, 0, out, 1, c.length);
        return out;
    }

    /** Puts {@code frame} in place of m's next hello to a, and runs until a has handled it. */
    private static void send(VirtualOverlay o, AdmittedForgerOnLoopbackTest.Forger forger, byte[] frame) {
        int before = forger.sent.get();
        forger.next.set(frame);
        for (int step = 0; step < 3_000 && forger.sent.get() == before; step++) {
            o.runFor(MS);
        }
        assertThat(forger.sent.get()).as("the forged frame left m, sealed").isEqualTo(before + 1);
        o.runFor(50 * MS);
    }
}
