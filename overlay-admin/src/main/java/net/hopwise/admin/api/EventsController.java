package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import net.hopwise.admin.overlay.OverlayEvent;
import net.hopwise.admin.overlay.OverlayEvents;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** Link up and down, reroutes and impairment changes: as a server-sent event stream and as a log. */
@RestController
@RequestMapping("/api/events")
@Tag(name = "events", description = "What happens in the overlay")
public class EventsController {
    private final OverlayEvents events;

    public EventsController(OverlayEvents events) {
        this.events = events;
    }

    @GetMapping(produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Server-sent event stream of overlay events",
            description = "Each event's SSE name is its type (LINK_UP, LINK_DOWN, REROUTE, ...), its id the"
                    + " event id and its data the event as JSON. Reconnecting with Last-Event-ID replays what"
                    + " was missed, as far as the log reaches.")
    public SseEmitter stream(@RequestHeader(name = "Last-Event-ID", required = false) Long lastEventId) {
        return events.subscribe(lastEventId);
    }

    @GetMapping(path = "/recent", produces = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "The events kept in the log, oldest first")
    public List<OverlayEvent> recent(
            @Parameter(description = "Only events with a larger id") @RequestParam(defaultValue = "0") long after) {
        if (after < 0) {
            throw new IllegalArgumentException("after must be 0 or more, got " + after);
        }
        return events.recent(after);
    }
}
