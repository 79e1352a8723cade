package net.hopwise.admin.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service's node's link security ({@code hopwise.link-security.*}), as NodeDaemon's key options:
 * a key file with a trusted-keys file or the authorities' keys and this node's certificate. A
 * configured node needs keys or {@code insecure: true}; the demo generates keys of its own.
 */
public class LinkSecurityProperties {
    /** This node's private key file ({@code keytool genkey node FILE}), mode 600. */
    private String keyFile;
    /** The trusted-keys file: one {@code NAME ed25519:KEY} per line, this node included. */
    private String trustedKeys;
    /** Public keys ({@code ed25519:BASE64}) of the authorities whose certificates admit a node. */
    private List<String> authorityKeys = new ArrayList<>();
    /** This node's certificate file, under an authority. */
    private String certificate;
    /** {@code aes-gcm} or {@code chacha-poly}; unset, the security module's default. */
    private String cipher;
    /** Runs the node without keys: links neither authenticated nor encrypted. Never the default. */
    private boolean insecure;
    /** An authority-signed revocation list ({@code keytool revoke}) to apply and flood, under an authority. */
    private String revocations;
    /**
     * How often the certificate, trusted-keys and revocation files are compared with when they were
     * last read; 0 for only on SIGHUP. Unset, the daemon's default ({@code SecurityFiles.DEFAULT_CHECK_INTERVAL}).
     */
    private Duration reloadInterval;

    public String getKeyFile() {
        return keyFile;
    }

    public void setKeyFile(String keyFile) {
        this.keyFile = keyFile;
    }

    public String getTrustedKeys() {
        return trustedKeys;
    }

    public void setTrustedKeys(String trustedKeys) {
        this.trustedKeys = trustedKeys;
    }

    public List<String> getAuthorityKeys() {
        return authorityKeys;
    }

    public void setAuthorityKeys(List<String> authorityKeys) {
        this.authorityKeys = authorityKeys;
    }

    public String getCertificate() {
        return certificate;
    }

    public void setCertificate(String certificate) {
        this.certificate = certificate;
    }

    public String getCipher() {
        return cipher;
    }

    public void setCipher(String cipher) {
        this.cipher = cipher;
    }

    public boolean isInsecure() {
        return insecure;
    }

    public void setInsecure(boolean insecure) {
        this.insecure = insecure;
    }

    public String getRevocations() {
        return revocations;
    }

    public void setRevocations(String revocations) {
        this.revocations = revocations;
    }

    public Duration getReloadInterval() {
        return reloadInterval;
    }

    public void setReloadInterval(Duration reloadInterval) {
        this.reloadInterval = reloadInterval;
    }
}
