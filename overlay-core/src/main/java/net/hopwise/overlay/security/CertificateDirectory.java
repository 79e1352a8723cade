package net.hopwise.overlay.security;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Identity keys learnt from certificates (those nodes send in handshakes, and those flooded with link
 * state), each kept only if the admission admits it for the name it certifies. Bounded by the number
 * of names an overlay has; a newer certificate for a name (a later not-after) replaces an older one.
 * Used on the node's thread.
 */
public final class CertificateDirectory implements IdentityDirectory {
    private final Admission admission;
    private final Map<String, NodeCertificate> byName = new HashMap<>();
    private final int maxNames;

    public CertificateDirectory(Admission admission, int maxNames) {
        this.admission = admission;
        this.maxNames = maxNames;
    }

    /** Learns a certificate if it is admitted now; returns whether it was. */
    public boolean learn(NodeCertificate c, long epochSeconds) {
        if (!admission.check(c.name(), c.identityKey(), c, epochSeconds).admitted()) {
            return false;
        }
        NodeCertificate held = byName.get(c.name());
        if (held == null && byName.size() >= maxNames) {
            return false;
        }
        if (held == null || c.notAfter() >= held.notAfter()) {
            byName.put(c.name(), c);
        }
        return true;
    }

    /** Forgets certificates past their validity or no longer admitted (after a revocation). */
    public void prune(Admission current, long epochSeconds) {
        byName.values().removeIf(c -> !current.check(c.name(), c.identityKey(), c, epochSeconds).admitted());
    }

    @Override
    public List<byte[]> keys(String name) {
        NodeCertificate c = byName.get(name);
        return c == null ? List.of() : List.of(c.identityKey());
    }
}
