package net.hopwise.examples.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Runs independent simulations on a few threads. Each run owns its network, so parallelism changes
 * neither any run's trace nor the order of the results.
 */
final class Runs {
    private Runs() {
    }

    static <S, R> List<R> all(List<S> scenarios, Function<S, R> run, int threads, String what) {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (S s : scenarios) {
                futures.add(pool.submit(() -> run.apply(s)));
            }
            List<R> results = new ArrayList<>();
            int done = 0;
            for (Future<R> f : futures) {
                results.add(f.get());
                done++;
                if (done % Math.max(1, scenarios.size() / 10) == 0 || done == scenarios.size()) {
                    System.err.printf("%s: %d/%d runs%n", what, done, scenarios.size());
                }
            }
            return results;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a run failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }
}
