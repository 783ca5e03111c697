// Inline SVG icons (nothing loads from another origin). Decorative unless given a label.
import type { ReactNode, SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { label?: string };

function Icon({ label, children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.8"
      strokeLinecap="round" strokeLinejoin="round" focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })} {...props}>
      {label ? <title>{label}</title> : null}
      {children}
    </svg>
  );
}

export const BellIcon = (p: IconProps) => (
  <Icon {...p}><path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" /><path d="M10 20a2 2 0 0 0 4 0" /></Icon>
);
export const FrontPageIcon = (p: IconProps) => (
  <Icon {...p}><rect x="3" y="4" width="18" height="16" rx="1" /><path d="M6 8h12M6 12h5M6 16h5M14 12h4v4h-4z" /></Icon>
);
export const PulseIcon = (p: IconProps) => (
  <Icon {...p}><path d="M3 12h4l2-5 4 10 2-5h6" /></Icon>
);
export const VoicesIcon = (p: IconProps) => (
  <Icon {...p}><circle cx="9" cy="8" r="3" /><path d="M3 20a6 6 0 0 1 12 0" /><circle cx="17" cy="9" r="2.4" /><path d="M16 14.2A5 5 0 0 1 21 19" /></Icon>
);
export const PenIcon = (p: IconProps) => (
  <Icon {...p}><path d="M4 20l1-4L16 5l3 3L8 19z" /><path d="M14 7l3 3" /></Icon>
);
export const ProfileIcon = (p: IconProps) => (
  <Icon {...p}><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></Icon>
);
export const AdminIcon = (p: IconProps) => (
  <Icon {...p}><path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z" /></Icon>
);
export const LoginIcon = (p: IconProps) => (
  <Icon {...p}><path d="M14 4h5v16h-5" /><path d="M4 12h11M11 8l4 4-4 4" /></Icon>
);
export const SearchIcon = (p: IconProps) => (
  <Icon {...p}><circle cx="10.5" cy="10.5" r="6" /><path d="M15 15l5.5 5.5" /></Icon>
);
/** A speech bubble: the community's social page. */
export const ChatIcon = (p: IconProps) => (
  <Icon {...p}><path d="M4 5h16v11H9l-5 4z" /><path d="M8 9h8M8 12h5" /></Icon>
);
/** A feed mark: the community's newsletter. */
export const FeedIcon = (p: IconProps) => (
  <Icon {...p}><circle cx="6" cy="18" r="1.6" fill="currentColor" /><path d="M4 11a9 9 0 0 1 9 9M4 4a16 16 0 0 1 16 16" /></Icon>
);

// The editor's toolbar (client/components/editor/MarkdownEditor.tsx).
export const LinkIcon = (p: IconProps) => (
  <Icon {...p}><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></Icon>
);
export const QuoteIcon = (p: IconProps) => (
  <Icon {...p}><path d="M5 11h4v6H5zM5 11c0-3 1-5 4-6M14 11h4v6h-4zM14 11c0-3 1-5 4-6" /></Icon>
);
export const ListIcon = (p: IconProps) => (
  <Icon {...p}><path d="M9 6h11M9 12h11M9 18h11" /><circle cx="4.5" cy="6" r="1" /><circle cx="4.5" cy="12" r="1" /><circle cx="4.5" cy="18" r="1" /></Icon>
);
export const CodeIcon = (p: IconProps) => (
  <Icon {...p}><path d="M8 7l-5 5 5 5M16 7l5 5-5 5M13.5 5l-3 14" /></Icon>
);
