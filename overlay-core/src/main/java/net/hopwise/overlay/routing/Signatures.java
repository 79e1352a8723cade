package net.hopwise.overlay.routing;

import net.hopwise.overlay.spi.LinkStateSigner;

/**
 * A router's use of its {@link LinkStateSigner}: signs what it originates, verifies what others did,
 * and counts both. Without a signer nothing is signed and everything verifies, as link state did
 * before signatures. A signer that throws, or answers with a signature the wire cannot carry, is a
 * bug of its module: signing fails loudly; verifying counts the version as forged.
 */
final class Signatures {
    private final LinkStateSigner signer;
    private long verified;
    private long failed;

    Signatures(LinkStateSigner signer) {
        this.signer = signer;
        if (signer != null && (signer.maxSignatureBytes() < 1
                || signer.maxSignatureBytes() > LinkStateAdvertisement.MAX_SIGNATURE_BYTES)) {
            throw new IllegalArgumentException("a link-state signature is 1 to "
                    + LinkStateAdvertisement.MAX_SIGNATURE_BYTES + " bytes: " + signer.maxSignatureBytes());
        }
    }

    /** Whether versions are signed and checked: without a signer a check costs nothing. */
    boolean checking() {
        return signer != null;
    }

    /** Bytes a signature adds to one version on the wire (its length byte included); 0 without a signer. */
    int overheadBytes() {
        return signer == null ? 0 : 1 + signer.maxSignatureBytes();
    }

    LinkStateAdvertisement sign(LinkStateAdvertisement a) {
        return signer == null ? a : a.withSignature(checked(signer.sign(LinkStateCodec.signedContent(a))));
    }

    ExtensionRecord sign(ExtensionRecord r) {
        return signer == null ? r : r.withSignature(checked(signer.sign(ExtensionCodec.signedContent(r))));
    }

    boolean verify(LinkStateAdvertisement a) {
        return signer == null || verify(a.origin(), a.originName(), a.signature(), () -> LinkStateCodec.signedContent(a));
    }

    /** {@code originName}: the name of the origin's advertisement held, null if none is. */
    boolean verify(ExtensionRecord r, String originName) {
        return signer == null || verify(r.origin(), originName, r.signature(), () -> ExtensionCodec.signedContent(r));
    }

    private boolean verify(net.hopwise.overlay.NodeId origin, String originName, byte[] signature,
            java.util.function.Supplier<byte[]> content) {
        verified++;
        boolean ok;
        try {
            // A name that does not hash to the id is not the origin's, whatever signs it.
            ok = signature != null && originName != null && net.hopwise.overlay.NodeId.ofName(originName).equals(origin)
                    && signer.verify(origin, originName, content.get(), signature);
        } catch (RuntimeException e) {
            ok = false;
        }
        if (!ok) {
            failed++;
        }
        return ok;
    }

    private byte[] checked(byte[] signature) {
        if (signature == null || signature.length < 1 || signature.length > signer.maxSignatureBytes()) {
            throw new IllegalStateException("the link-state signer made a signature of "
                    + (signature == null ? "null" : signature.length + " bytes") + ", not 1 to "
                    + signer.maxSignatureBytes());
        }
        return signature;
    }

    long verified() {
        return verified;
    }

    long failed() {
        return failed;
    }
}
