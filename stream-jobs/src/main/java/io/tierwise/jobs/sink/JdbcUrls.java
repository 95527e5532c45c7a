package io.tierwise.jobs.sink;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** The PostgreSQL JDBC URL the jobs and the rollup retention connect with. */
public final class JdbcUrls {
  private JdbcUrls() {}

  /**
   * {@code url} with PGPASSWORD and PGSSLMODE (libpq's variables, which the Node services' pg
   * client reads itself) as the pgjdbc parameters {@code password} and {@code sslmode}, unless
   * the URL sets them.
   */
  public static String withPgEnvironment(String url, Map<String, String> env) {
    String u = url;
    for (var p : List.of(Map.entry("password", "PGPASSWORD"), Map.entry("sslmode", "PGSSLMODE"))) {
      String value = env.get(p.getValue());
      if (value != null && !value.isEmpty()) {
        u = withParameter(u, p.getKey(), value);
      }
    }
    return u;
  }

  /** {@code url} with the query parameter {@code name=value} (URL-encoded), unless it sets {@code name}. */
  public static String withParameter(String url, String name, String value) {
    if (url.matches(".*[?&]" + name + "=.*")) {
      return url;
    }
    return url + (url.indexOf('?') < 0 ? '?' : '&') + name + '=' + URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
