// A section link that marks itself as the current page (aria-current) for styling and screen readers.
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';

export function isCurrent(location: string, href: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}

export function NavItem({ href, className, label, children }: {
  href: string; className?: string; label?: string; children: ReactNode;
}) {
  const [location] = useLocation();
  return (
    <Link href={href} className={className} aria-label={label}
      aria-current={isCurrent(location, href) ? 'page' : undefined}>
      {children}
    </Link>
  );
}
