import styles from "../../inbox.module.css";
import { LocalTime } from "../ui/local-time";

export interface RatingView {
  score: number;
  comment: string | null;
  closed_at: string;
  created_at: string;
}

export const RATING_FACES = ["", "😞", "🙁", "😐", "🙂", "😄"];

/** The visitor's ratings of this conversation's closes, in the thread (newest first). */
export function Ratings({ ratings }: { ratings: RatingView[] }) {
  if (ratings.length === 0) return null;
  return (
    <section aria-labelledby="ratings-title" data-testid="ratings">
      <h2 id="ratings-title" className={styles.label}>
        Visitor rating{ratings.length > 1 ? "s" : ""}
      </h2>
      <ul className={styles.plainList}>
        {ratings.map((rating) => (
          <li key={rating.closed_at} className={`${styles.message} ${styles.system}`}>
            <div className={styles.messageMeta}>
              <LocalTime iso={rating.created_at} full />
            </div>
            <p>
              <span aria-hidden="true">{RATING_FACES[rating.score]} </span>
              {rating.score} out of 5{rating.comment ? (
                <>
                  {" · “"}
                  <span dir="auto">{rating.comment}</span>”
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
