package net.hopwise.voip.relay;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything the relay refused, dropped or gave up on, by reason, and what it carried. Written on
 * the relay's loop only; {@link #snapshot()} copies them for other threads.
 */
final class RelayCounters {
    long requestsFromPhones;
    long responsesFromPhones;
    long messagesFromNodes;
    long malformedDropped;
    long malformedAnswered;
    long badEnvelopes;
    long unmatchedResponses;
    long loopsDetected;
    long tooManyHops;
    long noRoute;
    long nodeSendFailures;
    long retransmissionsAbsorbed;
    long retransmissionsSent;
    long transactionTimeouts;
    long unknownDialog;
    long sdpUnreadable;
    long portsExhausted;
    long overloadRefused;
    long mediaUnknownPort;
    long mediaTimeouts;
    long registrations;
    long listenerFailures;
    long faults;
    long rateLimited;
    long rateBlocks;

    Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("requestsFromPhones", requestsFromPhones);
        m.put("responsesFromPhones", responsesFromPhones);
        m.put("messagesFromNodes", messagesFromNodes);
        m.put("malformedDropped", malformedDropped);
        m.put("malformedAnswered", malformedAnswered);
        m.put("badEnvelopes", badEnvelopes);
        m.put("unmatchedResponses", unmatchedResponses);
        m.put("loopsDetected", loopsDetected);
        m.put("tooManyHops", tooManyHops);
        m.put("noRoute", noRoute);
        m.put("nodeSendFailures", nodeSendFailures);
        m.put("retransmissionsAbsorbed", retransmissionsAbsorbed);
        m.put("retransmissionsSent", retransmissionsSent);
        m.put("transactionTimeouts", transactionTimeouts);
        m.put("unknownDialog", unknownDialog);
        m.put("sdpUnreadable", sdpUnreadable);
        m.put("portsExhausted", portsExhausted);
        m.put("overloadRefused", overloadRefused);
        m.put("mediaUnknownPort", mediaUnknownPort);
        m.put("mediaTimeouts", mediaTimeouts);
        m.put("registrations", registrations);
        m.put("listenerFailures", listenerFailures);
        m.put("faults", faults);
        m.put("rateLimited", rateLimited);
        m.put("rateBlocks", rateBlocks);
        return m;
    }
}
