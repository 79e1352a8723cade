package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import net.hopwise.admin.overlay.NodeSecurityView;
import net.hopwise.admin.overlay.LocalNodes;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Link security of the local nodes beyond each link's own figures (those are in /api/links). */
@RestController
@RequestMapping(path = "/api/security", produces = "application/json")
@Tag(name = "security", description = "Handshake state and link-state verification of the local nodes")
public class SecurityController {
    private final LocalNodes nodes;

    public SecurityController(LocalNodes nodes) {
        this.nodes = nodes;
    }

    @GetMapping
    @Operation(summary = "Each local node's handshake state and link-state verification cost, the service's own"
            + " node first", description = "Pending handshakes against their bound, cookie replies, refusals by"
            + " cookie, rate and admission; Ed25519 verifications and cache hits of signed link state. Each"
            + " link's security (authenticated, the peer's fingerprint, drops) is in /api/links.")
    public List<NodeSecurityView> security() {
        return NodeSecurityView.of(nodes);
    }
}
