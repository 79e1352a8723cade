package net.hopwise.admin.api;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.List;
import java.util.Map;
import net.hopwise.admin.overlay.OverlayException;
import net.hopwise.admin.voip.VoipRelay;
import net.hopwise.voip.relay.CallStatistics;
import net.hopwise.voip.relay.SipRelay;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The calls the SIP relay beside the service's node carries, with each call's quality. */
@RestController
@RequestMapping(path = "/api", produces = "application/json")
@Tag(name = "voip", description = "The SIP relay beside the service's node")
public class CallsController {
    private final VoipRelay voip;

    public CallsController(VoipRelay voip) {
        this.voip = voip;
    }

    /**
     * One call as the API shows it: the relay's view plus the E-model figures under the configured
     * access delay, each as R (rating, 0-100) and MOS: the relay's own estimate, and the one from the
     * phones' RTCP reports, which see the access legs the relay cannot (0 where no phone of the call
     * sent a report: many phones and SIPp send none); and the phones' round trip, phoneRttMs, as a phone
     * computes it from its peer's reports (RFC 3550 section 6.4.1), read by the relay from the reports'
     * LSR and DLSR: -1 until the phones exchanged sender and receiver reports both ways. The relay's call
     * records (hopwise.voip.call-records) hold the same fields.
     */
    public record CallView(String callId, String from, String to, String state, String caller, String callee,
            long durationMs, String endReason, double rating, double mos, double phoneRating, double phoneMos,
            double phoneRttMs, List<?> streams) {
        static CallView of(CallStatistics c, double accessDelayMs) {
            return new CallView(c.callId(), c.from(), c.to(), c.state(), c.caller(), c.callee(), c.durationMs(),
                    c.endReason(), round(c.rating(accessDelayMs)), round(c.mos(accessDelayMs)),
                    round(c.phoneRating(accessDelayMs)), round(c.phoneMos(accessDelayMs)), c.phoneRttMs(),
                    c.streams());
        }

        private static double round(double figure) {
            return Math.round(figure * 100) / 100.0;
        }
    }

    /** The relay as a whole: where it listens, its counters and the phones registered with it. */
    public record RelayView(String sipAddress, Map<String, Long> counters, Map<String, List<String>> registrations) {}

    @GetMapping("/calls")
    @Operation(summary = "Lists the calls the SIP relay knows", description = "Every call in setup, confirmed, or"
            + " ended and lingering, with its streams' loss, late, duplicate, jitter and delay figures per direction and"
            + " the E-model R and MOS of its worst stream towards the phones (rating, mos; 0 before media), and the"
            + " same from the phones' own RTCP reports (phoneRating, phoneMos; 0 when no phone of the call sent one),"
            + " and the phones' round trip"
            + " from their RTCP timing (phoneRttMs, the longest over the streams; -1 until both phones reported). 404"
            + " (urn:hopwise:problem:voip-disabled) when the relay is not enabled.")
    public List<CallView> calls() {
        SipRelay relay = relay();
        return relay.calls().stream().map(c -> CallView.of(c, voip.accessDelayMs())).toList();
    }

    @GetMapping("/calls/{callId}")
    @Operation(summary = "One call by its Call-ID", description = "404 (urn:hopwise:problem:unknown-call) for a"
            + " Call-ID the relay does not know, 404 voip-disabled when the relay is not enabled.")
    public CallView call(@PathVariable String callId) {
        return relay().calls().stream().filter(c -> c.callId().equals(callId)).findFirst()
                .map(c -> CallView.of(c, voip.accessDelayMs()))
                .orElseThrow(() -> OverlayException.unknownCall(callId));
    }

    @GetMapping("/voip")
    @Operation(summary = "The SIP relay: address, counters, registrations", description = "404 voip-disabled when"
            + " the relay is not enabled.")
    public RelayView relayView() {
        SipRelay relay = relay();
        Map<String, List<String>> registrations = new java.util.TreeMap<>();
        relay.registrations().forEach((aor, bindings) -> registrations.put(aor,
                bindings.stream().map(b -> b.contactUri()).toList()));
        return new RelayView(String.valueOf(relay.sipAddress()), relay.counters(), registrations);
    }

    private SipRelay relay() {
        return voip.relay().orElseThrow(OverlayException::voipDisabled);
    }
}
