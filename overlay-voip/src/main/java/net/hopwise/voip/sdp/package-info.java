/**
 * SDP for a media relay (RFC 8866, offer/answer RFC 3264, RTCP port RFC 3605, ICE RFC 8839): a
 * line-preserving model and rewriter, total on bad input.
 *
 * <p>{@link net.hopwise.voip.sdp.SessionDescription} keeps a body as bytes plus line offsets and
 * reads what a relay needs: the origin, session- and media-level connection addresses (IPv4 and
 * IPv6), m= ports, a=rtcp, rtcp-mux, direction attributes, and from those whether a stream is on hold
 * (sendonly, inactive or the RFC 2543 address 0.0.0.0), which sets the relay's media timeout; and
 * each stream's payload types ({@link net.hopwise.voip.sdp.RtpMap}, from a=rtpmap or RFC 3551's static
 * table), whose clock rate the relay reads RTP timestamps at.
 * {@link net.hopwise.voip.sdp.SdpRewriter} applies an {@link net.hopwise.voip.sdp.SdpRewrite}
 * (new c= addresses, m= and a=rtcp ports, o= version and address, ICE stripped) and copies every
 * other line byte for byte, unknown lines and line ends included, the way rtpengine's tests expect
 * "SDP in, SDP out" with only the media endpoint changed. {@link net.hopwise.voip.sdp.SdpOriginVersions}
 * keeps the o= version the relay emits monotonic per session owner. Malformed bodies give an
 * {@link net.hopwise.voip.sdp.SdpParseError}; nothing here throws on input bytes.
 */
package net.hopwise.voip.sdp;
