package net.hopwise.overlay.security;

import java.security.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Not a test: what one datagram's AES-256-GCM costs, sealed and opened as the link does it (a new
 * nonce each time, a 13-byte header authenticated), through the JDK's provider and through
 * the native providers whose jars are on the classpath, Conscrypt (BoringSSL) and Amazon Corretto
 * Crypto Provider (AWS-LC), so that a native provider is judged on the link's own terms: small
 * datagrams, one initialisation per nonce under the same key. A native provider's rows are measured
 * twice, over arrays and over direct buffers (which a native provider reads in place, where the JDK
 * copies). Also the cost of {@link Aead} itself, which the link calls. Run after test-compile, under
 * the build lock, from overlay-core: {@code java -cp
 * target/classes:target/test-classes[:conscrypt-openjdk-uber.jar][:AmazonCorrettoCryptoProvider-linux-x86_64.jar]
 * net.hopwise.overlay.security.AeadProviderBenchmark [sizes, default 64,1000,1400]}.
 */
public final class AeadProviderBenchmark {
    private static final int ROUNDS = 5;
    private static final int PER_ROUND = 200_000;

    private AeadProviderBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes = java.util.Arrays.stream((args.length > 0 ? args[0] : "64,1000,1400").split(","))
                .mapToInt(Integer::parseInt).toArray();
        List<Provider> providers = new ArrayList<>();
        providers.add(Cipher.getInstance("AES/GCM/NoPadding").getProvider());
        Provider conscrypt = conscrypt();
        if (conscrypt != null) {
            providers.add(conscrypt);
        }
        Provider accp = accp();
        if (accp != null) {
            providers.add(accp);
        }
        System.out.printf(Locale.ROOT, "Java %s; %d rounds of %d datagrams, the median round; ns per datagram%n",
                System.getProperty("java.version"), ROUNDS, PER_ROUND);
        for (int n : sizes) {
            for (Provider p : providers) {
                long[] so = providerSealOpen(p, n, false);
                System.out.printf(Locale.ROOT, "%-10s %5d bytes: seal %4d, open %4d (arrays)%n", p.getName(), n, so[0], so[1]);
                if (p != providers.get(0)) {
                    long[] d = providerSealOpen(p, n, true);
                    System.out.printf(Locale.ROOT, "%-10s %5d bytes: seal %4d, open %4d (direct buffers)%n", p.getName(), n,
                            d[0], d[1]);
                }
            }
            for (CipherSuite suite : CipherSuite.values()) {
                long[] a = aeadSealOpen(suite, n, ROUNDS, PER_ROUND);
                System.out.printf(Locale.ROOT, "%-10s %5d bytes: seal %4d, open %4d (the link's Aead, JDK provider, %s)%n",
                        "Aead", n, a[0], a[1], suite);
            }
        }
    }

    private static Provider conscrypt() {
        try {
            Class<?> c = Class.forName("org.conscrypt.Conscrypt");
            if (!(Boolean) c.getMethod("isAvailable").invoke(null)) {
                System.out.println("Conscrypt is on the classpath but its native library does not load here");
                return null;
            }
            return (Provider) c.getMethod("newProvider").invoke(null);
        } catch (ClassNotFoundException e) {
            System.out.println("Conscrypt is not on the classpath: the JDK's provider only");
            return null;
        } catch (ReflectiveOperationException | LinkageError e) {
            System.out.println("Conscrypt does not load here: " + e);
            return null;
        }
    }

    /** Amazon Corretto Crypto Provider when its jar is on the classpath and its native library loads. */
    static Provider accp() {
        try {
            Class<?> c = Class.forName("com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider");
            Provider p = (Provider) c.getField("INSTANCE").get(null);
            Throwable error = (Throwable) c.getMethod("getLoadingError").invoke(p);
            if (error != null) {
                System.out.println("Amazon Corretto Crypto Provider does not load here: " + error);
                return null;
            }
            return p;
        } catch (ClassNotFoundException e) {
            System.out.println("Amazon Corretto Crypto Provider is not on the classpath");
            return null;
        } catch (ReflectiveOperationException | LinkageError e) {
            System.out.println("Amazon Corretto Crypto Provider does not load here: " + e);
            return null;
        }
    }

    /** Median nanoseconds per seal and per open of {@code n} bytes, over arrays or direct buffers. */
    static long[] providerSealOpen(Provider provider, int n, boolean direct) throws Exception {
        if (direct) {
            return providerSealOpenDirect(provider, n);
        }
        SecretKeySpec key = new SecretKeySpec(Crypto.randomBytes(32), "AES");
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding", provider);
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding", provider);
        byte[] header = new byte[SecureWire.DATA_HEADER_BYTES];
        byte[] plain = Crypto.randomBytes(n);
        byte[] sealed = new byte[n + Aead.TAG_BYTES];
        byte[] opened = new byte[n];
        byte[] nonce = new byte[12];
        long counter = 0;
        long[] seal = new long[ROUNDS];
        long[] open = new long[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < PER_ROUND; i++) {
                nonce(nonce, counter++);
                enc.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                enc.updateAAD(header);
                enc.doFinal(plain, 0, n, sealed, 0);
            }
            long t1 = System.nanoTime();
            // the last datagram sealed, opened again and again: the cost, not the content, matters
            nonce(nonce, counter - 1);
            for (int i = 0; i < PER_ROUND; i++) {
                dec.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                dec.updateAAD(header);
                dec.doFinal(sealed, 0, n + Aead.TAG_BYTES, opened, 0);
            }
            long t2 = System.nanoTime();
            seal[r] = (t1 - t0) / PER_ROUND;
            open[r] = (t2 - t1) / PER_ROUND;
        }
        return new long[] {median(seal), median(open)};
    }

    private static long[] providerSealOpenDirect(Provider provider, int n) throws Exception {
        SecretKeySpec key = new SecretKeySpec(Crypto.randomBytes(32), "AES");
        Cipher enc = Cipher.getInstance("AES/GCM/NoPadding", provider);
        Cipher dec = Cipher.getInstance("AES/GCM/NoPadding", provider);
        byte[] header = new byte[SecureWire.DATA_HEADER_BYTES];
        java.nio.ByteBuffer plain = java.nio.ByteBuffer.allocateDirect(n).put(Crypto.randomBytes(n)).flip();
        java.nio.ByteBuffer sealed = java.nio.ByteBuffer.allocateDirect(n + Aead.TAG_BYTES);
        java.nio.ByteBuffer opened = java.nio.ByteBuffer.allocateDirect(n);
        byte[] nonce = new byte[12];
        long counter = 0;
        long[] seal = new long[ROUNDS];
        long[] open = new long[ROUNDS];
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < PER_ROUND; i++) {
                nonce(nonce, counter++);
                enc.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                enc.updateAAD(header);
                plain.rewind();
                sealed.clear();
                enc.doFinal(plain, sealed);
            }
            long t1 = System.nanoTime();
            nonce(nonce, counter - 1);
            for (int i = 0; i < PER_ROUND; i++) {
                dec.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(128, nonce));
                dec.updateAAD(header);
                sealed.flip();
                opened.clear();
                dec.doFinal(sealed, opened);
                sealed.limit(sealed.capacity()).position(sealed.capacity());
            }
            long t2 = System.nanoTime();
            seal[r] = (t1 - t0) / PER_ROUND;
            open[r] = (t2 - t1) / PER_ROUND;
        }
        return new long[] {median(seal), median(open)};
    }

    /**
     * Median nanoseconds per seal (in place, as the link seals) and per open of {@code n} bytes through
     * {@link Aead} with {@code suite}, over {@code rounds} rounds of {@code perRound} datagrams.
     */
    static long[] aeadSealOpen(CipherSuite suite, int n, int rounds, int perRound) {
        byte[] k = Crypto.randomBytes(32);
        Aead tx = new Aead(suite, k);
        Aead rx = new Aead(suite, k);
        int h = SecureWire.DATA_HEADER_BYTES;
        byte[] buf = new byte[h + n + Aead.TAG_BYTES];
        byte[] opened = new byte[n];
        long counter = 0;
        long[] seal = new long[rounds];
        long[] open = new long[rounds];
        long check = 0;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < perRound; i++) {
                tx.seal(counter++, buf, 0, h, buf, h, n, buf, h);
            }
            long t1 = System.nanoTime();
            long last = counter - 1; // buf holds the datagram sealed under it (in place, ciphertext over plaintext)
            for (int i = 0; i < perRound; i++) {
                check += rx.open(last, buf, 0, h, buf, h, n + Aead.TAG_BYTES, opened, 0);
            }
            long t2 = System.nanoTime();
            seal[r] = (t1 - t0) / perRound;
            open[r] = (t2 - t1) / perRound;
        }
        if (check != (long) rounds * perRound * n) {
            throw new IllegalStateException("a sealed datagram did not open");
        }
        return new long[] {median(seal), median(open)};
    }

    private static void nonce(byte[] nonce, long counter) {
        for (int i = 0; i < 8; i++) {
            nonce[4 + i] = (byte) (counter >>> (56 - 8 * i));
        }
    }

    private static long median(long[] v) {
        long[] s = v.clone();
        java.util.Arrays.sort(s);
        return s[s.length / 2];
    }
}
