package net.hopwise.voip.sdp;

import java.util.List;

/**
 * One m= section (RFC 8866 section 5.14) with what the relay reads from it.
 *
 * @param index position among the m= lines, from 0
 * @param port the media port; 0 marks a rejected or disabled stream (RFC 3264 section 6)
 * @param portCount the {@code /<count>} of the m= line, or 1
 * @param connection the media-level c=, or null when the session-level one applies
 * @param rtcpPort the a=rtcp port (RFC 3605), or -1
 * @param rtcpAddress the a=rtcp address, or null
 * @param direction the media-level direction attribute, or null when none is given
 * @param rtcpMux whether a=rtcp-mux is present (RFC 5761)
 * @param mLine index in {@link SessionDescription#lines()} of the m= line
 * @param rtpMaps the section's readable a=rtpmap lines, in order (unreadable ones are left out, not refused)
 * @param ptime the packet time the section's author asks to receive (a=ptime, RFC 8866 section 6.4; the
 *     session's when the section gives none), or null when none is given or it is unreadable
 */
public record MediaDescription(int index, String media, int port, int portCount, String proto, List<String> formats,
        Connection connection, int rtcpPort, Connection rtcpAddress, MediaDirection direction, boolean rtcpMux, int mLine,
        List<RtpMap> rtpMaps, java.time.Duration ptime) {

    /** This section with {@code ptime} as its packet time. */
    MediaDescription withPtime(java.time.Duration ptime) {
        return new MediaDescription(index, media, port, portCount, proto, formats, connection, rtcpPort, rtcpAddress,
                direction, rtcpMux, mLine, rtpMaps, ptime);
    }

    /**
     * What payload type {@code payloadType} stands for in this section: its a=rtpmap, else RFC 3551's
     * static assignment; null when neither names it.
     */
    public RtpMap rtpMap(int payloadType) {
        for (RtpMap m : rtpMaps) {
            if (m.payloadType() == payloadType) {
                return m;
            }
        }
        return RtpMap.ofStatic(payloadType);
    }
}
