package io.tierwise.jobs.recommend;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.jupiter.api.Test;

class RecommendationTest {
  @Test
  void theStateCopyKeepsEveryFieldButTheInputsAndTheExplanation() throws Exception {
    Recommendation r = new Recommendation();
    int n = 1;
    for (Field f : Recommendation.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      if (f.getType() == String.class) {
        f.set(r, f.getName() + "-value");
      } else if (f.getType() == int.class) {
        f.setInt(r, n++);
      } else if (f.getType() == long.class) {
        f.setLong(r, n++);
      } else {
        f.setDouble(r, n++ + 0.5);
      }
    }
    Recommendation copy = r.stateCopy();
    assertThat(copy.inputsJson).isNull();
    assertThat(copy.explanation).isNull();
    assertThat(copy).usingRecursiveComparison().ignoringFields("inputsJson", "explanation").isEqualTo(r);
    assertThat(r.inputsJson).as("the original is left whole").isEqualTo("inputsJson-value");
  }
}
