package net.hopwise.overlay.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.routing.ExtensionCodec;
import net.hopwise.overlay.routing.ExtensionRecord;
import net.hopwise.overlay.routing.ExtensionUpdate;
import net.hopwise.overlay.routing.LinkCost;
import net.hopwise.overlay.routing.LinkStateAdvertisement;
import net.hopwise.overlay.routing.LinkStateCodec;
import net.hopwise.overlay.routing.LinkStateUpdate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * The signature field that carries its origin's certificate: it round-trips through the link-state
 * wire (advertisements and extension records) whatever the name's length; its decoder is total; and
 * any change to the field or to what it signs is refused by a verifier under the authority.
 */
class CertifiedSignatureProperties {
    private static final long WALL = 1_800_000_000L;
    private static final byte[] AUTHORITY = Crypto.newEd25519Private();
    private static final NodeKeys ORIGIN = NodeKeys.generate();

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withCharRange('a', 'z').numeric().withChars('-', '.', '_')
                .ofMinLength(1).ofMaxLength(NodeId.MAX_NAME_LENGTH).filter(n -> {
                    try {
                        NodeId.requireValidName(n);
                        return true;
                    } catch (IllegalArgumentException e) {
                        return false;
                    }
                });
    }

    @Property(tries = 200, seed = "21")
    void anyCertifiedFieldRoundTripsThroughTheLinkStateWire(@ForAll("names") String name,
            @ForAll @Size(32) byte[] identityKey, @ForAll long notBefore, @ForAll @IntRange(min = 0) int validFor,
            @ForAll long serial, @ForAll @Size(32) byte[] authorityKey, @ForAll @Size(64) byte[] authoritySignature,
            @ForAll @Size(64) byte[] contentSignature) {
        long notAfter = notBefore > Long.MAX_VALUE - validFor ? Long.MAX_VALUE : notBefore + validFor;
        CertifiedSignature s = new CertifiedSignature(identityKey, notBefore, notAfter, serial, authorityKey,
                authoritySignature, contentSignature);
        byte[] field = s.encode();
        assertThat(field).hasSize(LinkStateSigner.CERTIFIED_SIGNATURE_BYTES);
        assertThat(field.length).isLessThanOrEqualTo(LinkStateAdvertisement.MAX_SIGNATURE_BYTES);
        assertThat(CertifiedSignature.decode(field)).contains(s);
        NodeCertificate rebuilt = s.certificate(name).orElseThrow();
        assertThat(CertifiedSignature.of(rebuilt, contentSignature)).isEqualTo(s);

        NodeId origin = NodeId.ofName(name);
        LinkStateUpdate u = new LinkStateUpdate(List.of(new LinkStateAdvertisement(origin, name, 7, 0,
                List.of(new LinkStateAdvertisement.Link(NodeId.ofName("x"), new LinkCost(1, 0))), field)));
        ByteBuf b = Unpooled.buffer();
        ExtensionUpdate x = new ExtensionUpdate(List.of(new ExtensionRecord(origin, 3, 7, 0, new byte[] {1}, field)));
        ByteBuf xb = Unpooled.buffer();
        try {
            LinkStateCodec.encodeUpdate(u, b);
            assertThat(LinkStateCodec.decodeUpdate(b)).isEqualTo(u);
            ExtensionCodec.encodeUpdate(x, xb);
            assertThat(ExtensionCodec.decodeUpdate(xb)).isEqualTo(x);
        } finally {
            b.release();
            xb.release();
        }
    }

    @Property(tries = 300, seed = "22")
    void decodingAndVerifyingAnyBytesNeverThrowsAndNeverAccepts(@ForAll @Size(max = 300) byte[] bytes,
            @ForAll boolean certifiedShape) {
        byte[] field = bytes;
        if (certifiedShape) {
            field = java.util.Arrays.copyOf(bytes, LinkStateSigner.CERTIFIED_SIGNATURE_BYTES);
            field[0] = CertifiedSignature.FORMAT;
        }
        boolean one = field.length == LinkStateSigner.CERTIFIED_SIGNATURE_BYTES && field[0] == CertifiedSignature.FORMAT;
        assertThat(CertifiedSignature.decode(field).isPresent()).isEqualTo(one);
        LinkStateSigner verifier = verifier();
        assertThat(verifier.verify("o", 0, new byte[] {1, 2, 3}, field).valid()).isFalse();
    }

    @Property(tries = 40, seed = "23")
    void anyBitFlippedInTheFieldOrTheContentIsRefused(@ForAll @IntRange(min = 0, max = 8 * 217 - 1) int bit,
            @ForAll @Size(min = 1, max = 100) byte[] content, @ForAll boolean flipContent) {
        NodeCertificate certificate = NodeCertificate.sign(AUTHORITY, "o", ORIGIN.identityPublic(), WALL - 10,
                WALL + 10, 1);
        LinkStateSigner origin = LinkStateSigner.of(
                SecurityConfig.of("o", ORIGIN, certificate, authority()).withWallClock(() -> WALL), 4);
        byte[] field = origin.sign(0, content);
        LinkStateSigner verifier = verifier();
        assertThat(verifier.verify("o", 0, content, field)).isEqualTo(LinkStateSigner.Verdict.VALID);
        assertThat(verifier.verify("p", 0, content, field).valid()).as("another origin's name").isFalse();
        byte[] changedField = field.clone();
        byte[] changedContent = content.clone();
        if (flipContent) {
            changedContent[(bit / 8) % content.length] ^= (byte) (1 << (bit % 8));
        } else {
            changedField[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        assertThat(verifier.verify("o", 0, changedContent, changedField).valid()).isFalse();
    }

    private static AuthorityAdmission authority() {
        return AuthorityAdmission.of(Crypto.ed25519Public(AUTHORITY));
    }

    private static final NodeKeys VERIFIER = NodeKeys.generate();
    private static final NodeCertificate VERIFIER_CERTIFICATE = NodeCertificate.sign(AUTHORITY, "v",
            VERIFIER.identityPublic(), WALL - 10, WALL + 10, 2);

    private static LinkStateSigner verifier() {
        return LinkStateSigner.of(SecurityConfig.of("v", VERIFIER, VERIFIER_CERTIFICATE, authority())
                .withWallClock(() -> WALL), 16);
    }
}
