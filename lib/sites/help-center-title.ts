/** The help center's title: the one set, else the widget's title, else the site's name. */
export const helpCenterTitle = (site: { helpCenterTitle: string | null; title: string | null; name: string }) =>
  site.helpCenterTitle ?? site.title ?? site.name;
