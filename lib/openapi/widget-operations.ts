import type { Operation } from "./operations";

// Widget 2's routes: the site config and identity verification's secret.
export const widgetOperations: Operation[] = [];
