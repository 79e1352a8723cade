package net.hopwise.voip.body;

/** Why a multipart body (RFC 2046 section 5.1, in SIP RFC 5621) could not be split into parts. */
public enum MultipartError {
    /** Content-Type has no usable boundary parameter (1 to 70 characters, RFC 2046 section 5.1.1). */
    NO_BOUNDARY,
    /** The body holds no delimiter line for that boundary. */
    NO_DELIMITER,
    /** The close delimiter {@code --boundary--} is missing. */
    UNTERMINATED,
    /** A part's header section is not ended by a blank line. */
    BAD_PART
}
