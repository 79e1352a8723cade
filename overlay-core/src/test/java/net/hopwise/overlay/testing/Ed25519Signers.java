package net.hopwise.overlay.testing;

import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.util.HashMap;
import java.util.Map;
import net.hopwise.overlay.NodeId;
import net.hopwise.overlay.spi.LinkStateSigner;

/**
 * Ed25519 link-state signers for tests: one key pair per node name, every node trusting every public
 * key made here (an overlay whose members are all admitted). Keys come from a seeded generator, so a
 * run is repeatable.
 */
public final class Ed25519Signers {
    private final Map<NodeId, KeyPair> keys = new HashMap<>();
    private final SecureRandom random;

    public Ed25519Signers(long seed) {
        try {
            random = SecureRandom.getInstance("SHA1PRNG");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        random.setSeed(seed);
    }

    /** The key pair of {@code name}, made on first use. */
    public synchronized KeyPair keyPair(String name) {
        return keys.computeIfAbsent(NodeId.ofName(name), id -> {
            try {
                KeyPairGenerator g = KeyPairGenerator.getInstance("Ed25519");
                g.initialize(255, random);
                return g.generateKeyPair();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** The signer of node {@code name}: signs with its key, verifies against every key made here. */
    public LinkStateSigner signerOf(String name) {
        KeyPair own = keyPair(name);
        return new LinkStateSigner() {
            @Override
            public int maxSignatureBytes() {
                return 64;
            }

            @Override
            public byte[] sign(byte[] content) {
                try {
                    Signature s = Signature.getInstance("Ed25519");
                    s.initSign(own.getPrivate());
                    s.update(content);
                    return s.sign();
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException(e);
                }
            }

            @Override
            public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
                PublicKey key;
                synchronized (Ed25519Signers.this) {
                    KeyPair pair = keys.get(origin);
                    if (pair == null) {
                        return false;
                    }
                    key = pair.getPublic();
                }
                try {
                    Signature s = Signature.getInstance("Ed25519");
                    s.initVerify(key);
                    s.update(content);
                    return s.verify(signature);
                } catch (GeneralSecurityException | RuntimeException e) {
                    return false;
                }
            }
        };
    }
}
