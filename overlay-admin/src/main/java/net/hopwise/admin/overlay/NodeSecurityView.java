package net.hopwise.admin.overlay;

import io.swagger.v3.oas.annotations.media.Schema;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.hopwise.overlay.OverlayNode;
import net.hopwise.overlay.security.LinkStateSigner;
import net.hopwise.overlay.security.SecureLinks;

/**
 * One local node's link security beyond its links: the handshakes it holds state for and refused (a
 * handshake flood shows here, as cookie replies and budget refusals, never as unbounded state), and what
 * verifying other nodes' signed link state has cost it.
 */
@Schema(description = "A local node's handshake state and link-state verification; null parts when the node runs"
        + " without link security or did not answer in time")
public record NodeSecurityView(
        String node,
        @Schema(description = "The node runs link security (keys configured); false for an insecure node")
                boolean secured,
        @Schema(nullable = true) SecureLinks.HandshakeState handshakes,
        @Schema(description = "Ed25519 verifications of link state and of certificates, cache hits, refusals; null"
                + " when its link state is not signed", nullable = true) LinkStateSigner.Stats linkStateVerification) {

    /** How long the API waits for a node's thread to report. */
    private static final long WAIT_MILLIS = 2_000;

    /** The view of every local node, the service's own first. */
    public static java.util.List<NodeSecurityView> of(LocalNodes nodes) {
        return nodes.selfFirst().stream().map(NodeSecurityView::of).toList();
    }

    static NodeSecurityView of(OverlayNode node) {
        SecureLinks links = node.findModule(SecureLinks.class).orElse(null);
        if (links == null) {
            return new NodeSecurityView(node.name(), false, null, null);
        }
        SecureLinks.HandshakeState handshakes = null;
        LinkStateSigner.Stats verification = null;
        try {
            handshakes = links.handshakes().get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            verification = links.linkStateVerification().get(WAIT_MILLIS, TimeUnit.MILLISECONDS).orElse(null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // A node that does not answer in time shows without figures this once.
        }
        return new NodeSecurityView(node.name(), true, handshakes, verification);
    }
}
