package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import java.util.List;
import net.hopwise.admin.overlay.ImpairmentRequest;
import net.hopwise.admin.overlay.ImpairmentView;
import net.hopwise.admin.overlay.LinkHistory;
import net.hopwise.admin.overlay.LinkImpairments;
import net.hopwise.admin.overlay.LinkStatisticsView;
import net.hopwise.admin.overlay.OverlayException;
import net.hopwise.admin.overlay.OverlayView;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Per-link statistics, their history, and link impairment. */
@RestController
@RequestMapping(path = "/api/links", produces = "application/json")
@Tag(name = "links", description = "Statistics and impairment of overlay links")
public class LinksController {
    private final OverlayView view;
    private final LinkHistory history;
    private final LinkImpairments impairments;

    public LinksController(OverlayView view, LinkHistory history, LinkImpairments impairments) {
        this.view = view;
        this.history = history;
        this.impairments = impairments;
    }

    @GetMapping
    @Operation(summary = "Statistics of every link: measured at local ends, advertised for remote links")
    public List<LinkStatisticsView> links() {
        return view.links();
    }

    @GetMapping("/{a}/{b}")
    @Operation(summary = "Statistics of one link (either order of its ends)",
            description = "404 when a node or the link is unknown")
    public LinkStatisticsView link(@PathVariable String a, @PathVariable String b) {
        OverlayView.Snapshot s = view.snapshot();
        return view.link(s, known(s, a, b));
    }

    @GetMapping("/{a}/{b}/history")
    @Operation(summary = "The link's recent samples, oldest first: RTT, jitter, loss, throughput")
    public List<LinkHistory.Sample> history(@PathVariable String a, @PathVariable String b,
            @Parameter(description = "At most this many of the latest samples (1-100000)")
                    @RequestParam(defaultValue = "600") int limit) {
        if (limit < 1 || limit > 100_000) {
            throw new IllegalArgumentException("limit must be 1-100000, got " + limit);
        }
        return history.samples(known(view.snapshot(), a, b).id(), limit);
    }

    @GetMapping("/{a}/{b}/impairment")
    @Operation(summary = "The impairment of each direction of a link with a local end",
            description = "409 when neither end is local to this instance")
    public ImpairmentView impairment(@PathVariable String a, @PathVariable String b) {
        known(view.snapshot(), a, b);
        return impairments.view(view.nodes(), a, b);
    }

    @PutMapping(path = "/{a}/{b}/impairment", consumes = "application/json")
    @Operation(summary = "Sets a link's impairment (loss, delay, jitter, rate, duplication, reordering)",
            description = "Replaces the impairment of the chosen directions with exactly what the body gives:"
                    + " fields left out impair nothing, so an empty object {} clears the directions entirely."
                    + " A field the request does not have, a value of the wrong type (a fraction for an integer"
                    + " field, a string for a number) or a value out of its range is refused with 400 naming it."
                    + " 404 for an unknown node or link, 409 when neither end is local. Requires authentication.",
            security = {@SecurityRequirement(name = "basic"), @SecurityRequirement(name = "bearer")})
    public ImpairmentView setImpairment(@PathVariable String a, @PathVariable String b,
            @Valid @RequestBody ImpairmentRequest request) {
        known(view.snapshot(), a, b);
        return impairments.apply(view.nodes(), a, b, request);
    }

    @DeleteMapping("/{a}/{b}/impairment")
    @Operation(summary = "Restores a link's configured impairment",
            description = "Puts back the impairment the chosen directions had when the service started: in the"
                    + " demo its delays and losses, for a configured node none (nodes have no impairment"
                    + " setting). It does not remove the demo's own impairments: to clear a link entirely, PUT"
                    + " an empty object {}. Requires authentication.",
            security = {@SecurityRequirement(name = "basic"), @SecurityRequirement(name = "bearer")})
    public ImpairmentView restoreImpairment(@PathVariable String a, @PathVariable String b,
            @Parameter(description = "Which directions: BOTH, FORWARD (a to b) or REVERSE")
                    @RequestParam(defaultValue = "BOTH") ImpairmentRequest.Scope direction) {
        known(view.snapshot(), a, b);
        return impairments.restore(view.nodes(), a, b, direction);
    }

    private static OverlayView.LinkKey known(OverlayView.Snapshot s, String a, String b) {
        if (a.equals(b)) {
            throw new IllegalArgumentException("a link joins two different nodes, got " + a + " twice");
        }
        for (String n : List.of(a, b)) {
            if (!s.knows(n)) {
                throw OverlayException.unknownNode(n);
            }
        }
        OverlayView.LinkKey k = new OverlayView.LinkKey(a, b);
        if (!s.links().contains(k)) {
            throw OverlayException.unknownLink(a, b);
        }
        return k;
    }
}
