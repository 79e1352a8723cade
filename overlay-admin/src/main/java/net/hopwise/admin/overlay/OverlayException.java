package net.hopwise.admin.overlay;

/** A request that names something the overlay does not have, or asks what this instance cannot do. */
public class OverlayException extends RuntimeException {
    /** What kind of refusal: the API turns each into its HTTP status. */
    public enum Kind {
        UNKNOWN_NODE,
        UNKNOWN_LINK,
        /** The link has no local end, so this instance cannot impair it. */
        NOT_LOCAL,
        /** A trace did not finish within the time the service waits for one. */
        TRACE_TIMEOUT,
        /** The VoIP relay is not enabled on this instance. */
        VOIP_DISABLED,
        /** No call of that id is known to the relay (ended calls are known while they linger). */
        UNKNOWN_CALL,
        /** The service's node runs no multicast module. */
        MULTICAST_DISABLED
    }

    private final Kind kind;

    public OverlayException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }

    public static OverlayException unknownNode(String name) {
        return new OverlayException(Kind.UNKNOWN_NODE, "no node named '" + name + "' is known to this overlay");
    }

    public static OverlayException traceTimeout(String destination, java.time.Duration waited) {
        return new OverlayException(Kind.TRACE_TIMEOUT, "the trace to " + destination + " did not finish within "
                + waited.toMillis() + " ms (hopwise.admin.trace-timeout)");
    }

    public static OverlayException unknownLink(String a, String b) {
        return new OverlayException(Kind.UNKNOWN_LINK, "there is no link between " + a + " and " + b);
    }

    public static OverlayException voipDisabled() {
        return new OverlayException(Kind.VOIP_DISABLED, "the VoIP relay is not enabled on this instance"
                + " (hopwise.voip.enabled=true starts it)");
    }

    public static OverlayException unknownCall(String callId) {
        return new OverlayException(Kind.UNKNOWN_CALL, "no call with Call-ID '" + callId + "' is known to the relay"
                + " (an ended call is known while it lingers, hopwise.voip.linger)");
    }

    public static OverlayException multicastDisabled() {
        return new OverlayException(Kind.MULTICAST_DISABLED, "the service's node runs no multicast module"
                + " (hopwise.multicast.enabled=false; an embedding installs net.hopwise.multicast.MulticastModule)");
    }
}
