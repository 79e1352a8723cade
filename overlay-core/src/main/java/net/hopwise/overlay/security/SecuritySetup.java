package net.hopwise.overlay.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A node's link security as an operator configures it: a key file and either a trusted-keys file or
 * the authority keys with this node's certificate. Where NodeDaemon and overlay-admin turn their
 * settings into a {@link SecurityConfig}, with one error message per mistake naming the file and
 * what is wrong with it, so that a node never starts with security half set up.
 *
 * @param keyFile this node's private key file ({@code keytool genkey node FILE}); mode 600
 * @param trustedKeys the trusted-keys file, or null under an authority
 * @param authorityKeys the public keys of the authorities that certify nodes ({@code ed25519:BASE64});
 *     empty with a trusted-keys file
 * @param certificate this node's certificate file under an authority, null otherwise
 * @param cipherSuite the data channel's cipher, or null for the default
 */
public record SecuritySetup(Path keyFile, Path trustedKeys, List<String> authorityKeys, Path certificate,
        CipherSuite cipherSuite) {
    public SecuritySetup {
        Objects.requireNonNull(keyFile, "keyFile");
        authorityKeys = List.copyOf(authorityKeys);
        if ((trustedKeys == null) == authorityKeys.isEmpty()) {
            throw new IllegalArgumentException(trustedKeys == null
                    ? "a node key needs what to admit: a trusted-keys file or an authority's public key"
                    : "admit by a trusted-keys file or by an authority, not both");
        }
        if (authorityKeys.isEmpty() != (certificate == null)) {
            throw new IllegalArgumentException(certificate == null
                    ? "under an authority the node needs its own certificate (keytool cert sign)"
                    : "a certificate is only used under an authority");
        }
    }

    /**
     * The link security a command line asks for, with the options every Hopwise program takes
     * ({@code --key}, {@code --trusted-keys}, {@code --authority}, {@code --certificate}, {@code
     * --cipher}, {@code --insecure}): null when the operator chose unauthenticated links.
     *
     * @throws IllegalArgumentException saying what is missing, contradictory or wrong, in one line
     */
    public static SecurityConfig fromOptions(String name, Path key, Path trustedKeys, List<String> authorities,
            Path certificate, CipherSuite cipher, boolean insecure) {
        boolean keyed = key != null || trustedKeys != null || !authorities.isEmpty() || certificate != null
                || cipher != null;
        if (insecure) {
            if (keyed) {
                throw new IllegalArgumentException("--insecure runs without keys: drop it, or drop the key options");
            }
            return null;
        }
        if (key == null) {
            throw new IllegalArgumentException(keyed ? "--key FILE is needed with the other key options"
                    : "links need keys: --key FILE with --trusted-keys FILE, or with --authority ed25519:KEY and "
                            + "--certificate FILE (make them with: keytool genkey node FILE), or --insecure to run "
                            + "links anyone can join and read");
        }
        try {
            return new SecuritySetup(key, trustedKeys, authorities, certificate, cipher).load(name);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--key " + key + ": " + e.getMessage(), e);
        }
    }

    /** A cipher as options and settings name it: {@code aes-gcm} or {@code chacha-poly}, any case. */
    public static CipherSuite cipher(String text) {
        return switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "aes-gcm" -> CipherSuite.AES_GCM;
            case "chacha-poly" -> CipherSuite.CHACHA_POLY;
            default -> throw new IllegalArgumentException("'" + text + "' is not aes-gcm or chacha-poly");
        };
    }

    /** Under a trusted-keys file. */
    public static SecuritySetup trustedKeys(Path keyFile, Path trustedKeys) {
        return new SecuritySetup(keyFile, trustedKeys, List.of(), null, null);
    }

    /** Under one authority. */
    public static SecuritySetup authority(Path keyFile, String authorityKey, Path certificate) {
        return new SecuritySetup(keyFile, null, List.of(authorityKey), certificate, null);
    }

    /**
     * Reads this setup's certificate file again and gives it to the running node ({@link
     * SecureLinks#renewCertificate}): what a daemon does when the operator has put a renewed
     * certificate in place of the old file, so that the node need not restart. Completes exceptionally,
     * the node unchanged, when the file cannot be read, holds no certificate, or the certificate does
     * not fit the node (see {@link SecureLinks#renewCertificate}); giving the certificate the node
     * already has changes nothing.
     */
    public java.util.concurrent.CompletableFuture<Void> reloadCertificate(SecureLinks links) {
        if (certificate == null) {
            return java.util.concurrent.CompletableFuture.failedFuture(
                    new IllegalStateException("no certificate file: this node is admitted by a trusted-keys list"));
        }
        NodeCertificate renewed;
        try {
            renewed = NodeCertificate.decode(Files.readAllBytes(certificate)).orElse(null);
        } catch (IOException e) {
            return java.util.concurrent.CompletableFuture.failedFuture(new IllegalArgumentException(
                    "cannot read certificate " + certificate + ": " + e.getMessage(), e));
        }
        if (renewed == null) {
            return java.util.concurrent.CompletableFuture.failedFuture(
                    new IllegalArgumentException(certificate + " is not a hopwise node certificate"));
        }
        return links.renewCertificate(renewed);
    }

    public SecuritySetup withCipherSuite(CipherSuite suite) {
        return new SecuritySetup(keyFile, trustedKeys, authorityKeys, certificate, suite);
    }

    /**
     * Reads the files and checks that they fit together for a node named {@code name}.
     *
     * @throws IllegalArgumentException saying which file or key is at fault and why
     */
    public SecurityConfig load(String name) {
        NodeKeys keys;
        try {
            keys = KeyFiles.readNodeKeys(keyFile);
        } catch (KeyFileException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        Admission admission;
        NodeCertificate own = null;
        if (trustedKeys != null) {
            TrustedKeys trusted;
            try {
                trusted = TrustedKeys.read(trustedKeys);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("trusted-keys file " + trustedKeys + " does not exist", e);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read trusted-keys file " + trustedKeys + ": " + e.getMessage(), e);
            }
            if (!trusted.keys(name).stream().anyMatch(k -> java.util.Arrays.equals(k, keys.identityPublic()))) {
                // Neighbours check the same list: a node missing from it would have every link refused.
                throw new IllegalArgumentException("trusted-keys file " + trustedKeys + " does not list " + name
                        + " with the key of " + keyFile + " (add the line: " + TrustedKeys.line(name, keys.identityPublic()) + ")");
            }
            admission = trusted;
        } else {
            Set<byte[]> authorities = new HashSet<>();
            for (String k : authorityKeys) {
                try {
                    authorities.add(TrustedKeys.parseKey(k));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("authority key: " + e.getMessage(), e);
                }
            }
            admission = new AuthorityAdmission(authorities, Set.of(), Set.of());
            try {
                own = NodeCertificate.decode(Files.readAllBytes(certificate)).orElseThrow(() ->
                        new IllegalArgumentException(certificate + " is not a hopwise node certificate"));
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("certificate file " + certificate + " does not exist", e);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read certificate " + certificate + ": " + e.getMessage(), e);
            }
            long now = System.currentTimeMillis() / 1000;
            Admission.Verdict verdict = admission.check(name, keys.identityPublic(), own, now);
            if (verdict != Admission.Verdict.ADMITTED) {
                // Every neighbour would refuse it for the same reason: say so now, not as silent link failures.
                throw new IllegalArgumentException("certificate " + certificate + " does not admit " + name
                        + " with the key of " + keyFile + ": " + verdict.name().toLowerCase(java.util.Locale.ROOT)
                        .replace('_', ' '));
            }
        }
        SecurityConfig config = SecurityConfig.of(name, keys, own, admission);
        return cipherSuite == null ? config : config.withCipherSuite(cipherSuite);
    }
}
