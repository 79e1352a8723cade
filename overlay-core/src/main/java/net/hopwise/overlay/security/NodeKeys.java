package net.hopwise.overlay.security;

import java.nio.charset.StandardCharsets;

/**
 * A node's long-term keys: an Ed25519 identity key (what admission trusts, what certificates name and
 * what signs link state) and an X25519 link key (the static key of its Noise handshakes). The
 * identity key signs the link key once ({@link #linkKeyBinding}), so a peer that trusts the identity
 * key learns which link key goes with it; the link key can then be replaced without a new
 * certificate.
 */
public final class NodeKeys {
    static final byte[] LINK_KEY_DOMAIN = "hopwise link key v1\0".getBytes(StandardCharsets.US_ASCII);

    private final byte[] identityPrivate;
    private final byte[] identityPublic;
    private final byte[] linkPrivate;
    private final byte[] linkPublic;
    private final byte[] linkKeyBinding;

    public NodeKeys(byte[] identityPrivate, byte[] linkPrivate) {
        this.identityPrivate = identityPrivate.clone();
        this.identityPublic = Crypto.ed25519Public(identityPrivate);
        this.linkPrivate = linkPrivate.clone();
        this.linkPublic = Crypto.x25519Public(linkPrivate);
        this.linkKeyBinding = Crypto.sign(identityPrivate, Crypto.concat(LINK_KEY_DOMAIN, linkPublic));
    }

    public static NodeKeys generate() {
        return new NodeKeys(Crypto.newEd25519Private(), Crypto.newX25519Private());
    }

    public byte[] identityPublic() {
        return identityPublic.clone();
    }

    public byte[] linkPublic() {
        return linkPublic.clone();
    }

    /** The identity key's signature over the link key. */
    public byte[] linkKeyBinding() {
        return linkKeyBinding.clone();
    }

    /** Whether {@code binding} is {@code identityKey}'s signature over {@code linkKey}. */
    public static boolean verifyLinkKeyBinding(byte[] identityKey, byte[] linkKey, byte[] binding) {
        return Crypto.verify(identityKey, Crypto.concat(LINK_KEY_DOMAIN, linkKey), binding);
    }

    public byte[] sign(byte[] message) {
        return Crypto.sign(identityPrivate, message);
    }

    public String fingerprint() {
        return Crypto.fingerprint(identityPublic);
    }

    byte[] identityPrivate() {
        return identityPrivate.clone();
    }

    byte[] linkPrivate() {
        return linkPrivate.clone();
    }

    @Override
    public String toString() {
        return "NodeKeys[" + fingerprint() + "]"; // never the private keys, in a log or anywhere
    }
}
