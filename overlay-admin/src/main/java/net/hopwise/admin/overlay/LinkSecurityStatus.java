package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.security.LinkSecurity;
import net.hopwise.overlay.security.SecureLinks;

/**
 * A link's security as one local end sees it: whether it has keys, whom they belong to, and what
 * was refused on it.
 */
@Schema(description = "Link security at this end; null when the node runs without link security (insecure)")
public record LinkSecurityStatus(
        @Schema(description = "The link has session keys: every datagram on it is sealed and opened") boolean authenticated,
        @Schema(description = "Fingerprint of the peer's identity key, once a handshake proved it", nullable = true)
                String peerFingerprint,
        @Schema(description = "Completed handshakes, rekeys included") long handshakes,
        long rekeys,
        @Schema(description = "Age of the session in use, seconds", nullable = true) Double sessionAgeSeconds,
        @Schema(description = "Datagrams refused as replays of ones already opened") long replayDrops,
        @Schema(description = "Datagrams refused because they did not open under the link's keys") long forgeryDrops,
        @Schema(description = "Handshakes refused for this link's name (key not admitted, revoked, expired)")
                long rejectionDrops) {

    /** How long the API waits for a node's thread to report. */
    private static final long WAIT_MILLIS = 2_000;

    static LinkSecurityStatus of(LinkSecurity.PeerStatus p) {
        return new LinkSecurityStatus(p.authenticated(), p.fingerprint(), p.handshakes(), p.rekeys(),
                p.authenticated() ? p.sessionAgeNanos() / 1e9 : null, p.replays(), p.forgeries(), p.rejections());
    }

    /** The node's links by peer name; empty when it runs without link security. */
    static Map<String, LinkSecurityStatus> of(OverlayNode node) {
        SecureLinks links = node.findModule(SecureLinks.class).orElse(null);
        Map<String, LinkSecurityStatus> out = new TreeMap<>();
        if (links == null) {
            return out;
        }
        try {
            for (LinkSecurity.PeerStatus p : links.status().get(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                out.put(p.name(), of(p));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // A node that does not answer in time shows its links without security figures this once.
        }
        return out;
    }
}
