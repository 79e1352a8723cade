package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import net.hopwise.admin.overlay.NodeDropsView;
import net.hopwise.admin.overlay.OverlayException;
import net.hopwise.admin.overlay.OverlayView;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** What the local nodes dropped, and why. */
@RestController
@RequestMapping(path = "/api/drops", produces = "application/json")
@Tag(name = "drops", description = "Datagrams the local nodes dropped, by reason")
public class DropsController {
    private final OverlayView view;

    public DropsController(OverlayView view) {
        this.view = view;
    }

    @GetMapping
    @Operation(summary = "Drop counters of every local node by reason, the service's own node first",
            description = "Every reason the core counts is listed, 0 where there were none; the same counts as"
                    + " the hopwise.node.drops meters.")
    public List<NodeDropsView> drops() {
        return view.drops();
    }

    @GetMapping("/{node}")
    @Operation(summary = "Drop counters of one local node by reason",
            description = "404 when no node of that name runs in this process (a remote node's drops are"
                    + " counted by its own service)")
    public NodeDropsView node(@PathVariable String node) {
        return view.drops().stream().filter(d -> d.node().equals(node)).findFirst()
                .orElseThrow(() -> view.snapshot().knows(node)
                        ? new OverlayException(OverlayException.Kind.UNKNOWN_NODE, "node '" + node + "' does not run in"
                                + " this process: its own admin service counts its drops")
                        : OverlayException.unknownNode(node));
    }
}
