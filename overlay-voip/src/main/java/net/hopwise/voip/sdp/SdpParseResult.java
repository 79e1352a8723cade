package net.hopwise.voip.sdp;

/** A {@link SessionDescription} or the reason there is none. */
public record SdpParseResult(SessionDescription description, SdpParseError error, int errorLine) {
    static SdpParseResult ok(SessionDescription description) {
        return new SdpParseResult(description, null, -1);
    }

    static SdpParseResult failed(SdpParseError error, int line) {
        return new SdpParseResult(null, error, line);
    }

    public boolean isOk() {
        return description != null;
    }
}
