package net.hopwise.overlay.routing;

import static net.hopwise.overlay.routing.RouterTest.A;
import static net.hopwise.overlay.routing.RouterTest.B;
import static net.hopwise.overlay.routing.RouterTest.C;
import static net.hopwise.overlay.routing.RouterTest.D;
import static net.hopwise.overlay.routing.RouterTest.TEN_MS;
import static net.hopwise.overlay.routing.RouterTest.lsa;
import static net.hopwise.overlay.routing.RouterTest.update;
import static net.hopwise.overlay.routing.VirtualNetwork.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.LinkStateSigner;
import net.hopwise.overlay.testing.Ed25519Signers;
import net.hopwise.overlay.wire.DropReason;
import org.junit.jupiter.api.Test;

/** Link state signed by its origin: what an admitted neighbour can no longer forge. */
class LinkStateSignatureTest {
    final Ed25519Signers keys = new Ed25519Signers(7);
    final CapturingOutput out = new CapturingOutput();
    final Router a = new Router(A, "a", RoutingConfig.defaults(), out, 100, 0, keys.signerOf("a"));

    LinkStateAdvertisement signed(String by, LinkStateAdvertisement ad) {
        return ad.withSignature(keys.signerOf(by).sign(LinkStateCodec.signedContent(ad)));
    }

    ExtensionRecord signed(String by, ExtensionRecord r) {
        return r.withSignature(keys.signerOf(by).sign(ExtensionCodec.signedContent(r)));
    }

    /**
     * The signer of {@code name}, refusing every origin in {@code revoked}: a node that has heard of a
     * revocation its neighbours have not, so what they relay of that origin fails here only.
     */
    LinkStateSigner revoking(String name, Set<NodeId> revoked) {
        LinkStateSigner own = keys.signerOf(name);
        return new LinkStateSigner() {
            @Override
            public int maxSignatureBytes() {
                return own.maxSignatureBytes();
            }

            @Override
            public byte[] sign(byte[] content) {
                return own.sign(content);
            }

            @Override
            public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
                return !revoked.contains(origin) && own.verify(origin, originName, content, signature);
            }
        };
    }

    /** A new seed each run, for inputs in an order no one chose; every assertion that depends on it prints it, -Dhopwise.seed replays it. */
    static long seed() {
        return Long.getLong("hopwise.seed", System.nanoTime());
    }

    /** A forgery of a made-up origin: a name of its own, so an id of its own, and a signature of nobody's. */
    static LinkStateAdvertisement invented(Random random, long sequence) {
        String name = "x" + Long.toHexString(random.nextLong());
        byte[] signature = new byte[64];
        random.nextBytes(signature);
        return new LinkStateAdvertisement(NodeId.ofName(name), name, sequence, 0,
                List.of(new LinkStateAdvertisement.Link(B, TEN_MS))).withSignature(signature);
    }

    @Test
    void signedAdvertisementsAndRecordsRoundTripAndTheirSizeIsExact() {
        LinkStateUpdate u = update(signed("c", lsa(C, 10, A, D)), lsa(D, 3, C));
        ByteBuf buf = Unpooled.buffer();
        LinkStateCodec.encodeUpdate(u, buf);
        assertThat(buf.readableBytes()).isEqualTo(LinkStateCodec.encodedSize(u));
        assertThat(LinkStateCodec.decodeUpdate(buf)).isEqualTo(u);
        assertThat(LinkStateCodec.decodeUpdate(buf).advertisements().get(0).signature()).hasSize(64);

        ExtensionUpdate x = new ExtensionUpdate(List.of(signed("c", new ExtensionRecord(C, 5, 1, 0, new byte[] {1, 2})),
                signed("c", new ExtensionRecord(C, 6, 2, 0, null)), new ExtensionRecord(D, 5, 1, 0, new byte[0])));
        ByteBuf xb = Unpooled.buffer();
        ExtensionCodec.encodeUpdate(x, xb);
        assertThat(xb.readableBytes()).isEqualTo(ExtensionCodec.encodedSize(x));
        assertThat(ExtensionCodec.decodeUpdate(xb)).isEqualTo(x);
    }

    @Test
    void aSignatureCoversTheContentButNotTheAgeAndNeverStandsForTheOtherKindOfRecord() {
        LinkStateSigner c = keys.signerOf("c");
        LinkStateAdvertisement ad = signed("c", lsa(C, 10, A));
        assertThat(c.verify(C, "c", LinkStateCodec.signedContent(ad.withAgeMillis(5_000)), ad.signature())).isTrue();
        assertThat(c.verify(C, "c", LinkStateCodec.signedContent(lsa(C, 11, A)), ad.signature())).as("sequence").isFalse();
        assertThat(c.verify(C, "c", LinkStateCodec.signedContent(lsa(C, 10, A, D)), ad.signature())).as("links").isFalse();
        assertThat(LinkStateCodec.signedContent(ad)).startsWith("hopwise link-state advertisement".getBytes(StandardCharsets.US_ASCII));
        assertThat(ExtensionCodec.signedContent(new ExtensionRecord(C, 1, 10, 0, new byte[0])))
                .startsWith("hopwise link-state extension record".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void itsOwnAdvertisementsAreSignedAndVerifyElsewhere() {
        a.neighbourUp(B, TEN_MS, 0);
        LinkStateAdvertisement own = out.advertisementsTo(B).stream().filter(x -> x.origin().equals(A)).reduce((x, y) -> y)
                .orElseThrow();
        assertThat(own.signature()).hasSize(64);
        assertThat(keys.signerOf("b").verify(A, "a", LinkStateCodec.signedContent(own), own.signature())).isTrue();
    }

    @Test
    void anAdmittedNeighbourCannotForgeAnotherNodesAdvertisement() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        a.onUpdate(C, update(signed("c", lsa(C, 10, A))), SECOND);
        assertThat(a.database().get(C).orElseThrow().sequence()).isEqualTo(10);
        out.clear();

        // b is admitted (its key is trusted) and signs a newer version of c's links with its own key.
        a.onUpdate(B, update(signed("b", lsa(C, 11, A, D))), 2 * SECOND);
        a.onUpdate(B, update(lsa(C, 12, A, D)), 2 * SECOND);
        a.onUpdate(B, update(lsa(C, 13, A, D).withSignature(new byte[64])), 2 * SECOND);

        assertThat(a.database().get(C).orElseThrow().sequence()).as("c's own version stays").isEqualTo(10);
        assertThat(out.rejections).containsExactly(new CapturingOutput.Rejection(B, DropReason.FORGED_LINK_STATE),
                new CapturingOutput.Rejection(B, DropReason.FORGED_LINK_STATE),
                new CapturingOutput.Rejection(B, DropReason.FORGED_LINK_STATE));
        assertThat(out.advertisementsTo(C)).as("nothing forged flooded on").isEmpty();
        assertThat(out.ackEntriesTo(B)).as("acknowledged, so an honest relay stops resending")
                .extracting(LinkStateAck.AckEntry::sequence).containsExactly(11L, 12L, 13L);
        assertThat(a.signaturesFailed()).isEqualTo(3);
    }

    /**
     * A forged copy never reaches the admission limits, so they were no bound on the signatures an
     * admitted neighbour makes this node verify: a flood of forgeries cost one Ed25519 check each. Each
     * check that admits nothing counts against the neighbour's cap, and one origin's against a smaller
     * window of its own; a forger that invents origin ids, or spreads its forgeries over every origin
     * held, still gets no more checks than the cap.
     */
    @Test
    void anAdmittedNeighboursForgeriesCostAtMostItsLimitOfSignatureChecksPerInterval() {
        long seed = seed();
        Random random = new Random(seed);
        RoutingConfig config = RoutingConfig.builder().maxAdvertisementsPerNeighbour(5).build();
        int cap = config.maxAdvertisementsPerNeighbour();
        int perOrigin = AdvertisementAdmission.vainChecksPerOrigin(config);
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        r.neighbourUp(B, TEN_MS, 0);
        r.neighbourUp(C, TEN_MS, 0);
        // Every origin held, this node included; what b sends of them is signed by a key none of them holds.
        List<NodeId> held = new ArrayList<>(List.of(A, B, C));
        r.onUpdate(B, update(signed("b", lsa(B, 5, A, C)), signed("c", lsa(C, 5, A, B))), 0);
        for (int i = 0; i < cap; i++) {
            NodeId o = NodeId.ofName("o" + i);
            held.add(o);
            r.onUpdate(C, update(signed("o" + i, new LinkStateAdvertisement(o, "o" + i, 5, 0,
                    List.of(new LinkStateAdvertisement.Link(C, TEN_MS))))), 0);
        }
        assertThat(held).allSatisfy(o -> assertThat(r.database().get(o)).as("%s", o).isPresent());
        out.clear();

        long before = r.signaturesVerified();
        for (int i = 0; i < 40; i++) {
            r.onUpdate(B, update(signed("b", lsa(C, 10 + i, A, D))), SECOND);
        }
        assertThat(r.signaturesVerified() - before).as("one origin: its own window").isEqualTo(perOrigin);
        for (int i = 0; i < 40; i++) {
            r.onUpdate(B, update(invented(random, 10 + i)), SECOND);
            NodeId o = held.get(random.nextInt(held.size()));
            r.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("z", new ExtensionRecord(o, 1 + random.nextInt(50),
                    20 + i, 0, new byte[] {1})))), SECOND);
        }
        assertThat(r.signaturesVerified() - before).as("seed %d: checks, the cap of each of the two floods", seed)
                .isEqualTo(2L * cap);
        assertThat(out.rejections).as("seed %d", seed)
                .filteredOn(x -> x.reason() == DropReason.FORGED_LINK_STATE).hasSize(2 * cap);
        assertThat(out.rejections).as("seed %d", seed)
                .filteredOn(x -> x.reason() == DropReason.LINK_STATE_LIMIT).hasSize(120 - 2 * cap);
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(5);
        assertThat(r.extensions(1)).isEmpty();

        // Another neighbour's genuine version is checked and taken; the forger gets a fresh cap an
        // interval later, no more.
        r.onUpdate(C, update(signed("c", lsa(C, 60, A))), SECOND);
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(60);
        long later = r.signaturesVerified();
        for (int i = 0; i < 40; i++) {
            r.onUpdate(B, update(i % 2 == 0 ? signed("b", lsa(C, 100 + i, A, D)) : invented(random, 100 + i)), 3 * SECOND);
        }
        assertThat(r.signaturesVerified() - later).as("seed %d", seed).isEqualTo(cap);
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(60);
    }

    /**
     * Checks that admitted nothing have windows of their own: a neighbour that relays forgeries of a few
     * origins (an honest one relaying origins this node no longer admits) keeps its whole limit for
     * genuine versions of other origins, and each of those origins costs its own small window only.
     */
    @Test
    void forgeriesARelayPassesOnDoNotSpendItsLimitForGenuineVersions() {
        RoutingConfig config = RoutingConfig.builder().maxAdvertisementsPerNeighbour(5).build();
        int perOrigin = AdvertisementAdmission.vainChecksPerOrigin(config);
        int relayed = AdvertisementAdmission.trackedOrigins(config);
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        r.neighbourUp(B, TEN_MS, 0);
        out.clear();
        assertThat(relayed).as("origins with a window of their own").isEqualTo(2);
        List<NodeId> forged = List.of(C, D);
        for (int i = 0; i < 4; i++) {
            for (NodeId f : forged) {
                r.onUpdate(B, update(signed("b", lsa(f, 10 + i, A))), SECOND);
            }
        }
        List<NodeId> others = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            NodeId o = NodeId.ofName("o" + i);
            others.add(o);
            r.onUpdate(B, update(signed("o" + i, new LinkStateAdvertisement(o, "o" + i, 7, 0,
                    List.of(new LinkStateAdvertisement.Link(B, TEN_MS))))), SECOND);
        }
        assertThat(others).allSatisfy(o -> assertThat(r.database().get(o)).as("%s", o).isPresent());
        assertThat(out.rejections).filteredOn(x -> x.reason() == DropReason.FORGED_LINK_STATE)
                .hasSize(perOrigin * forged.size());
        assertThat(out.rejections).as("the rest of the forgeries, refused unchecked")
                .filteredOn(x -> x.reason() == DropReason.LINK_STATE_LIMIT).hasSize((4 - perOrigin) * forged.size());
    }

    /**
     * What the bound on vain checks keeps per origin cannot grow with the origins a forger invents: at
     * most trackedOrigins per neighbour whatever it sends, none once it is down.
     */
    @Test
    void theStateForTheBoundOnVainChecksStaysBoundedUnderAFloodOfInventedOrigins() {
        long seed = seed();
        Random random = new Random(seed);
        RoutingConfig config = RoutingConfig.builder().maxAdvertisementsPerNeighbour(64).build();
        int tracked = AdvertisementAdmission.trackedOrigins(config);
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        List<NodeId> forgers = List.of(B, C, D);
        forgers.forEach(f -> r.neighbourUp(f, TEN_MS, 0));
        long sequence = 10;
        int most = 0;
        for (int interval = 1; interval <= 4; interval++) {
            long before = r.signaturesVerified();
            for (int i = 0; i < 1000; i++) {
                NodeId f = forgers.get(random.nextInt(forgers.size()));
                r.onUpdate(f, update(invented(random, sequence++)), interval * 2 * SECOND);
                most = Math.max(most, r.vainCheckOrigins());
            }
            assertThat(r.signaturesVerified() - before).as("seed %d, interval %d: checks", seed, interval)
                    .isLessThanOrEqualTo((long) forgers.size() * config.maxAdvertisementsPerNeighbour());
        }
        assertThat(tracked).isEqualTo(16);
        assertThat(most).as("seed %d: origins with a window, at any time", seed).isEqualTo(forgers.size() * tracked);
        forgers.forEach(f -> r.neighbourDown(f, 10 * SECOND));
        assertThat(r.vainCheckOrigins()).isZero();
    }

    /**
     * An honest neighbour relays, faster than the per-neighbour window of vain checks, versions of an
     * origin this node revoked (signed by that origin, so the relay still takes them), mixed at random
     * with genuine versions of other origins: every genuine one is still checked and taken in the same
     * interval, advertisements and module records alike.
     */
    @Test
    void anHonestRelayFloodingARevokedOriginStillGetsOtherOriginsAdmittedInTheSameInterval() {
        long seed = seed();
        Random random = new Random(seed);
        RoutingConfig config = RoutingConfig.defaults();
        NodeId r = NodeId.ofName("r");
        Set<NodeId> revoked = new HashSet<>();
        Router node = new Router(A, "a", config, out, 100, 0, revoking("a", revoked));
        node.neighbourUp(B, TEN_MS, 0);
        // r was admitted before its revocation, so its records are checked instead of waiting for its advertisement.
        node.onUpdate(B, update(signed("r", new LinkStateAdvertisement(r, "r", 5, 0,
                List.of(new LinkStateAdvertisement.Link(B, TEN_MS))))), 0);
        assertThat(node.database().get(r)).isPresent();
        revoked.add(r);

        int flood = 2 * config.maxAdvertisementsPerNeighbour();
        List<Runnable> inputs = new ArrayList<>();
        List<NodeId> others = new ArrayList<>();
        for (int i = 0; i < flood; i++) {
            LinkStateAdvertisement v = signed("r", new LinkStateAdvertisement(r, "r", 10 + i, 0,
                    List.of(new LinkStateAdvertisement.Link(B, TEN_MS))));
            inputs.add(() -> node.onUpdate(B, update(v), SECOND));
        }
        for (int i = 0; i < 40; i++) {
            NodeId o = NodeId.ofName("o" + i);
            others.add(o);
            LinkStateAdvertisement v = signed("o" + i, new LinkStateAdvertisement(o, "o" + i, 7, 0,
                    List.of(new LinkStateAdvertisement.Link(B, TEN_MS))));
            inputs.add(() -> node.onUpdate(B, update(v), SECOND));
        }
        Collections.shuffle(inputs, random);
        inputs.forEach(Runnable::run);
        assertThat(others).allSatisfy(o -> assertThat(node.database().get(o)).as("seed %d: %s", seed, o).isPresent());
        assertThat(node.database().get(r).orElseThrow().sequence()).as("seed %d", seed).isEqualTo(5);
        int perOrigin = AdvertisementAdmission.vainChecksPerOrigin(config);
        assertThat(node.signaturesFailed()).as("seed %d: the revoked origin's checks, its window's", seed).isEqualTo(perOrigin);

        inputs.clear();
        for (int i = 0; i < flood; i++) {
            ExtensionRecord x = signed("r", new ExtensionRecord(r, 9, 10 + i, 0, new byte[] {1}));
            inputs.add(() -> node.onExtensionUpdate(B, new ExtensionUpdate(List.of(x)), 3 * SECOND));
        }
        for (int i = 0; i < others.size(); i++) {
            ExtensionRecord x = signed("o" + i, new ExtensionRecord(others.get(i), 9, 3, 0, new byte[] {2}));
            inputs.add(() -> node.onExtensionUpdate(B, new ExtensionUpdate(List.of(x)), 3 * SECOND));
        }
        Collections.shuffle(inputs, random);
        inputs.forEach(Runnable::run);
        assertThat(node.extensions(9)).as("seed %d", seed).containsOnlyKeys(others);
        assertThat(node.signaturesFailed()).as("seed %d", seed).isEqualTo(2L * perOrigin);
    }

    @Test
    void aGenuineVersionRelayedByAnyNeighbourIsTakenAndACopyHeldIsNotVerifiedAgain() {
        a.neighbourUp(B, TEN_MS, 0);
        a.neighbourUp(C, TEN_MS, 0);
        LinkStateAdvertisement d = signed("d", lsa(D, 4, C));
        a.onUpdate(B, update(d), SECOND);
        assertThat(a.database().get(D).orElseThrow().signature()).isEqualTo(d.signature());
        long verified = a.signaturesVerified();
        a.onUpdate(C, update(d.withAgeMillis(30)), SECOND);
        a.onUpdate(B, update(d), SECOND);
        assertThat(a.signaturesVerified()).as("the same version again costs no verification").isEqualTo(verified);
        assertThat(out.advertisementsTo(C)).as("flooded on with its origin's signature").contains(d.withAgeMillis(0));
    }

    @Test
    void aForgedCopyOfItsOwnAdvertisementIsRefusedInsteadOfBeatenBack() {
        a.neighbourUp(B, TEN_MS, 0);
        long own = a.database().get(A).orElseThrow().sequence();
        a.onUpdate(B, update(signed("b", lsa(A, own + 5, B, D))), SECOND);
        assertThat(a.database().get(A).orElseThrow().sequence()).isEqualTo(own);
        assertThat(out.rejections).containsExactly(new CapturingOutput.Rejection(B, DropReason.FORGED_LINK_STATE));
    }

    @Test
    void extensionRecordsAreSignedByTheirOriginAndForgeriesRefused() {
        a.neighbourUp(B, TEN_MS, 0);
        a.onUpdate(B, update(signed("b", lsa(B, 10, A, C)), signed("c", lsa(C, 10, B))), SECOND);
        a.publishExtension(9, new byte[] {42}, SECOND);
        ExtensionRecord mine = out.extensionsSent.stream().filter(s -> s.update() != null)
                .flatMap(s -> s.update().records().stream()).filter(r -> r.origin().equals(A)).findFirst().orElseThrow();
        assertThat(keys.signerOf("c").verify(A, "a", ExtensionCodec.signedContent(mine), mine.signature())).isTrue();

        out.clear();
        a.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("b", new ExtensionRecord(C, 9, 20, 0, new byte[] {6})))),
                2 * SECOND);
        assertThat(a.extensions(9)).doesNotContainKey(C);
        assertThat(out.rejections).containsExactly(new CapturingOutput.Rejection(B, DropReason.FORGED_LINK_STATE));
        a.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("c", new ExtensionRecord(C, 9, 21, 0, new byte[] {7})))),
                2 * SECOND);
        assertThat(a.extensions(9).get(C)).containsExactly(7);
    }

    /**
     * A version the admission limits would refuse anyway is refused before its check: over a full
     * window a neighbour's genuine versions cost nothing, and are taken again the next interval.
     */
    @Test
    void versionsOverANeighboursAdmissionLimitAreRefusedWithoutACheck() {
        RoutingConfig config = RoutingConfig.builder().maxAdvertisementsPerNeighbour(3).build();
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        r.neighbourUp(B, TEN_MS, 0);
        List<NodeId> origins = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            origins.add(NodeId.ofName("o" + i));
        }
        long before = r.signaturesVerified();
        for (int i = 0; i < origins.size(); i++) {
            r.onUpdate(B, update(signed("o" + i, new LinkStateAdvertisement(origins.get(i), "o" + i, 7, 0,
                    List.of(new LinkStateAdvertisement.Link(B, TEN_MS))))), SECOND);
        }
        assertThat(r.signaturesVerified() - before).as("checks: only of the versions the window takes").isEqualTo(3);
        assertThat(origins.subList(0, 3)).allSatisfy(o -> assertThat(r.database().get(o)).as("%s", o).isPresent());
        assertThat(origins.subList(3, 8)).allSatisfy(o -> assertThat(r.database().get(o)).as("%s", o).isEmpty());
        assertThat(out.rejections).filteredOn(x -> x.reason() == DropReason.LINK_STATE_LIMIT).hasSize(5);

        r.onUpdate(B, update(signed("o3", new LinkStateAdvertisement(origins.get(3), "o3", 7, 0,
                List.of(new LinkStateAdvertisement.Link(B, TEN_MS))))), 3 * SECOND);
        assertThat(r.database().get(origins.get(3))).as("the next interval takes it").isPresent();
    }

    /**
     * The kinds an origin may hold are counted before any signature is: a stream of records of new kinds
     * beyond the limit costs no check, genuine or not, however often an origin (or a forger) sends them.
     */
    @Test
    void aRecordOfANewKindBeyondItsOriginsLimitIsRefusedBeforeItsCheck() {
        RoutingConfig config = RoutingConfig.builder().maxExtensionsPerOrigin(1).build();
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        r.neighbourUp(B, TEN_MS, 0);
        r.onUpdate(B, update(signed("b", lsa(B, 10, A, C)), signed("c", lsa(C, 10, B))), 0);
        r.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("c", new ExtensionRecord(C, 1, 1, 0, new byte[] {1})))),
                0);
        assertThat(r.extensions(1).get(C)).containsExactly(1);
        out.clear();
        long before = r.signaturesVerified();
        for (int kind = 2; kind < 12; kind++) {
            r.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed(kind % 2 == 0 ? "c" : "b",
                    new ExtensionRecord(C, kind, 1, 0, new byte[] {2})))), SECOND);
        }
        assertThat(r.signaturesVerified() - before).as("checks of records beyond the origin's kinds").isZero();
        assertThat(out.rejections).hasSize(10)
                .allSatisfy(x -> assertThat(x.reason()).isEqualTo(DropReason.EXTENSION_LIMIT));
        assertThat(r.extensions(2)).isEmpty();
        assertThat(r.extensions(1).get(C)).containsExactly(1);
    }

    @Test
    void aSignedAdvertisementStillFitsOneUpdate() {
        RoutingConfig tooSmall = RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES).build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Router(A, "a", tooSmall, out, 100, 0, keys.signerOf("a")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no room for a signed advertisement");
        RoutingConfig small = RoutingConfig.builder().maxUpdateBodyBytes(RoutingConfig.MIN_UPDATE_BODY_BYTES + 65 + 160).build();
        Router r = new Router(A, "a", small, out, 100, 0, keys.signerOf("a"));
        for (int i = 0; i < 80; i++) {
            r.neighbourUp(net.hopwise.overlay.NodeId.ofName("n" + i), TEN_MS, 0);
        }
        LinkStateAdvertisement own = r.database().get(A).orElseThrow();
        assertThat(LinkStateCodec.UPDATE_HEADER_BYTES + LinkStateCodec.encodedSize(own))
                .isLessThanOrEqualTo(small.maxUpdateBodyBytes());
        assertThat(own.signature()).isNotNull();
        assertThat(own.links()).as("as many links as fit beside the signature").hasSize(11);
    }

    @Test
    void aSignatureTakesItsRoomFromTheLongestRecordAndPublishingMoreIsRefused() {
        RoutingConfig config = RoutingConfig.builder().maxUpdateBodyBytes(600).build();
        Router plain = new Router(A, "a", config, out, 100, 0);
        Router signing = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        assertThat(plain.maxExtensionBytes()).isEqualTo(600 - ExtensionCodec.UPDATE_HEADER_BYTES - ExtensionCodec.RECORD_HEADER_BYTES);
        assertThat(signing.maxExtensionBytes()).isEqualTo(plain.maxExtensionBytes() - 65);
        signing.publishExtension(3, new byte[signing.maxExtensionBytes()], 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> signing.publishExtension(4, new byte[signing.maxExtensionBytes() + 1], 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most " + signing.maxExtensionBytes());
    }

    @Test
    void aNameThatIsNotTheOriginsIsRefusedWhoeverSignsItAndARecordWaitsForItsOriginsAdvertisement() {
        a.neighbourUp(B, TEN_MS, 0);
        // c's id with b's name, signed by b: the signer would find b's key by the name.
        LinkStateAdvertisement claim = new LinkStateAdvertisement(C, "b", 10, 0,
                List.of(new LinkStateAdvertisement.Link(A, TEN_MS)));
        a.onUpdate(B, update(signed("b", claim)), SECOND);
        assertThat(a.database().get(C)).isEmpty();
        assertThat(out.rejections).containsExactly(new CapturingOutput.Rejection(B, DropReason.FORGED_LINK_STATE));

        out.clear();
        a.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("d", new ExtensionRecord(D, 9, 5, 0, new byte[] {1})))),
                2 * SECOND);
        assertThat(out.rejections).as("deferred, not refused").isEmpty();
        a.onUpdate(B, update(signed("d", lsa(D, 3, B))), 2 * SECOND);
        a.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("d", new ExtensionRecord(D, 9, 5, 0, new byte[] {1})))),
                3 * SECOND);
        assertThat(a.extensions(9).get(D)).containsExactly(1);
    }
}
