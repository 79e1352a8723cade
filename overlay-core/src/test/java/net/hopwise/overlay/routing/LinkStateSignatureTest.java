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
import java.util.List;
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
     * admitted neighbour makes this node verify: a flood of forgeries cost one Ed25519 check each. Now
     * each check that admits nothing counts against a window of the neighbour's own, and while it is full
     * nothing from it is checked.
     */
    @Test
    void anAdmittedNeighboursForgeriesCostAtMostItsLimitOfSignatureChecksPerInterval() {
        RoutingConfig config = RoutingConfig.builder().maxAdvertisementsPerNeighbour(5).build();
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        r.neighbourUp(B, TEN_MS, 0);
        r.neighbourUp(C, TEN_MS, 0);
        r.onUpdate(B, update(signed("b", lsa(B, 5, A, C)), signed("c", lsa(C, 5, A, B))), 0);
        out.clear();
        long before = r.signaturesVerified();
        for (int i = 0; i < 40; i++) {
            r.onUpdate(B, update(signed("b", lsa(C, 10 + i, A, D))), SECOND);
            r.onExtensionUpdate(B, new ExtensionUpdate(List.of(signed("b", new ExtensionRecord(C, 9, 20 + i, 0,
                    new byte[] {1})))), SECOND);
        }
        assertThat(r.signaturesVerified() - before).as("checks: the limit of each of the two floods").isEqualTo(10);
        assertThat(out.rejections).filteredOn(x -> x.reason() == DropReason.FORGED_LINK_STATE).hasSize(10);
        assertThat(out.rejections).filteredOn(x -> x.reason() == DropReason.LINK_STATE_LIMIT).hasSize(70);
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(5);
        assertThat(r.extensions(9)).doesNotContainKey(C);

        // Another neighbour's genuine version is checked and taken; the forger gets a fresh limit an
        // interval later, no more.
        r.onUpdate(C, update(signed("c", lsa(C, 60, A))), SECOND);
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(60);
        long later = r.signaturesVerified();
        for (int i = 0; i < 40; i++) {
            r.onUpdate(B, update(signed("b", lsa(C, 100 + i, A, D))), 3 * SECOND);
        }
        assertThat(r.signaturesVerified() - later).isEqualTo(5);
        assertThat(r.database().get(C).orElseThrow().sequence()).isEqualTo(60);
    }

    /**
     * Checks that admitted nothing have a window of their own: a neighbour that relays forgeries (an
     * honest one relaying an origin this node no longer admits) keeps its whole limit for genuine
     * versions of other origins.
     */
    @Test
    void forgeriesARelayPassesOnDoNotSpendItsLimitForGenuineVersions() {
        RoutingConfig config = RoutingConfig.builder().maxAdvertisementsPerNeighbour(5).build();
        Router r = new Router(A, "a", config, out, 100, 0, keys.signerOf("a"));
        r.neighbourUp(B, TEN_MS, 0);
        out.clear();
        for (int i = 0; i < 4; i++) {
            r.onUpdate(B, update(signed("b", lsa(C, 10 + i, A))), SECOND);
        }
        List<net.hopwise.overlay.NodeId> others = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            net.hopwise.overlay.NodeId o = net.hopwise.overlay.NodeId.ofName("o" + i);
            others.add(o);
            r.onUpdate(B, update(signed("o" + i, new LinkStateAdvertisement(o, "o" + i, 7, 0,
                    List.of(new LinkStateAdvertisement.Link(B, TEN_MS))))), SECOND);
        }
        assertThat(others).allSatisfy(o -> assertThat(r.database().get(o)).as("%s", o).isPresent());
        assertThat(out.rejections).filteredOn(x -> x.reason() == DropReason.FORGED_LINK_STATE).hasSize(4);
        assertThat(out.rejections).filteredOn(x -> x.reason() == DropReason.LINK_STATE_LIMIT).isEmpty();
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
