package net.hopwise.admin.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.hopwise.overlay.security.CipherSuite;
import net.hopwise.overlay.security.SecurityConfig;
import net.hopwise.overlay.security.SecuritySetup;
import net.hopwise.overlay.security.reload.SecurityFiles;

/**
 * Turns {@code hopwise.link-security.*} into the node's link security, with every mistake named by
 * its property, as {@link NodeSettings} does for the node: keys, or an explicit {@code insecure}.
 */
public final class LinkSecuritySettings {
    private static final String P = "hopwise.link-security.";

    private LinkSecuritySettings() {}

    /**
     * The node's link security, or null when the operator chose unauthenticated links.
     *
     * @throws InvalidSettingsException naming each property at fault
     */
    public static SecurityConfig toSecurityConfig(LinkSecurityProperties p, String nodeName) {
        List<String> problems = new ArrayList<>();
        boolean keyed = p.getKeyFile() != null || p.getTrustedKeys() != null || !p.getAuthorityKeys().isEmpty()
                || p.getCertificate() != null || p.getCipher() != null;
        if (p.isInsecure()) {
            if (p.getRevocations() != null || p.getReloadInterval() != null) {
                problems.add(P + (p.getRevocations() != null ? "revocations" : "reload-interval")
                        + ": applies to a node with keys, not to one run insecure");
                throw new InvalidSettingsException(problems);
            }
            if (keyed) {
                problems.add(P + "insecure: the node runs without keys; remove it, or remove the key settings");
                throw new InvalidSettingsException(problems);
            }
            return null;
        }
        if (p.getKeyFile() == null) {
            problems.add(keyed ? P + "key-file: needed with the other key settings"
                    : P + "key-file: a node needs keys (key-file with trusted-keys, or with authority-keys and "
                            + "certificate; make them with the daemon jar's keytool), or " + P
                            + "insecure=true for links anyone can join and read");
            throw new InvalidSettingsException(problems);
        }
        CipherSuite cipher = null;
        if (p.getCipher() != null) {
            switch (p.getCipher().toLowerCase(Locale.ROOT)) {
                case "aes-gcm" -> cipher = CipherSuite.AES_GCM;
                case "chacha-poly" -> cipher = CipherSuite.CHACHA_POLY;
                default -> problems.add(P + "cipher: '" + p.getCipher() + "' is not aes-gcm or chacha-poly");
            }
        }
        SecuritySetup setup;
        try {
            setup = new SecuritySetup(Path.of(p.getKeyFile()), p.getTrustedKeys() == null ? null : Path.of(p.getTrustedKeys()),
                    p.getAuthorityKeys(), p.getCertificate() == null ? null : Path.of(p.getCertificate()), cipher);
        } catch (IllegalArgumentException e) {
            problems.add(P + "*: " + e.getMessage());
            throw new InvalidSettingsException(problems);
        }
        try {
            // A revocation list a later reload would refuse is refused now, as the daemon refuses it.
            toSecurityFiles(p).checkRevocations();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage().startsWith(P) ? e.getMessage()
                    : P + "revocations " + p.getRevocations() + ": " + e.getMessage());
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        try {
            return setup.load(nodeName);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingsException(List.of(P + "key-file " + p.getKeyFile() + ": " + e.getMessage()));
        }
    }

    /**
     * The files the running node re-reads (the certificate, the trusted-keys list, the revocation list)
     * and how often, or null when the node runs insecure; for settings {@link #toSecurityConfig} took.
     *
     * @throws IllegalArgumentException for a revocation list under a trusted-keys list, or an interval that is
     *     not 0 or 1 s to 24 h
     */
    public static SecurityFiles toSecurityFiles(LinkSecurityProperties p) {
        if (p.isInsecure()) {
            return null;
        }
        String interval = p.getReloadInterval() == null ? null : SecurityFiles.intervalProblem(p.getReloadInterval());
        if (interval != null) {
            throw new IllegalArgumentException(P + "reload-interval: " + interval);
        }
        return new SecurityFiles(Path.of(p.getKeyFile()), path(p.getTrustedKeys()), p.getAuthorityKeys(),
                path(p.getCertificate()), path(p.getRevocations()),
                p.getReloadInterval() != null ? p.getReloadInterval() : SecurityFiles.DEFAULT_CHECK_INTERVAL);
    }

    private static Path path(String file) {
        return file == null ? null : Path.of(file);
    }
}
