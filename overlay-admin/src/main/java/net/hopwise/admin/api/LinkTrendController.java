package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.util.List;
import net.hopwise.admin.overlay.LinkHistory;
import net.hopwise.admin.overlay.OverlayView;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A link's history over a span of time, at a resolution a chart can draw. */
@RestController
@RequestMapping(path = "/api/links", produces = "application/json")
@Tag(name = "links", description = "Statistics and impairment of overlay links")
public class LinkTrendController {
    /** More points than a chart has pixel columns are wasted on the wire. */
    private static final int MAX_POINTS = 2000;

    private final OverlayView view;
    private final LinkHistory history;

    public LinkTrendController(OverlayView view, LinkHistory history) {
        this.view = view;
        this.history = history;
    }

    @GetMapping("/{a}/{b}/trend")
    @Operation(summary = "The link's samples over the last span, oldest first, at most a given number of points",
            description = "Full-resolution samples where they are kept, 10-second means before, up to an hour"
                    + " back; where the span holds more points than asked for, each equal slice of it becomes the"
                    + " mean of its points (the worst link state among them). 400 for a bad span or count, 404"
                    + " for an unknown link.")
    public List<LinkHistory.Sample> trend(@PathVariable String a, @PathVariable String b,
            @Parameter(description = "How far back, seconds (1 to 3600)") @RequestParam(defaultValue = "900")
                    int seconds,
            @Parameter(description = "At most this many points (2-2000)") @RequestParam(defaultValue = "300")
                    int points) {
        long reach = LinkHistory.reach().toSeconds();
        if (seconds < 1 || seconds > reach) {
            throw new IllegalArgumentException("seconds must be 1-" + reach + ", got " + seconds);
        }
        if (points < 2 || points > MAX_POINTS) {
            throw new IllegalArgumentException("points must be 2-" + MAX_POINTS + ", got " + points);
        }
        String id = OverlayView.knownLink(view.snapshot(), a, b).id();
        return history.window(id, Duration.ofSeconds(seconds), points);
    }
}
